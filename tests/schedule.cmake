# Read by CTest in every test folder after its tests are discovered (tests/CMakeLists.txt adds it
# to each folder's TEST_INCLUDE_FILES); a name that is not in a folder is passed over there.
# Tests made by add_test rather than discovered (mark_motionmark_reference,
# System.FullDiskKeepsHonestRecords) are defined after these includes run: their folder's
# CMakeLists.txt sets the same properties.
#
# slow: the tests of 14 s and more in a warm CI run (docs/environment.md has their times).
# `ctest -LE slow` leaves them out, `ctest -L unit` runs only the pure-logic tests in seconds.
# COST starts them first, so no long test is left running alone at the end of a clean clone's
# run (which has no CTestCostData.txt to order by).
set(pictor_slow_tests
  MarkSystem.TwoTestsOnXvfbWriteACompleteResult MarkSystem.IterationsEachWriteAResultAndTheMeanIsOverThem
  Offload.ExtremeTuxRacerAnSfmlGameOffloadedOverXvnc Offload.NeverballAnSdl2GameOffloadedOverXvnc
  CampaignSlurm.TwoByTwoThroughSbatchWithACancelledJobRetried
  PictorSuite.QuickDefaultSuiteWritesACompleteSummaryInUnderTwoMinutes
  [=[Games/ShippedProfile.RunsIntoPlayWhenInstalled/"neverball"]=]
  [=[Games/ShippedProfile.RunsIntoPlayWhenInstalled/"supertuxkart"]=]
  RecordSystem.EvalRunsRoundsWithTheSameGameInEveryRow IcSystem.RecordTrainAndDriveRacing
  Colocate.TwoGamesAloneAndTogetherWithTheirLoss Tracking.HeldKeysDoNotAutoRepeat
  TwoHosts.StreamOverTcpMatchesAsOnOneHost)
# Timing comparisons of two sessions run one after the other (a delay added to RTT, a viewer's
# part of it, a clock offset's uncertainty): they run alone, so the other core's test does not
# land in one session and not in the other. They are slow too.
set(pictor_serial_tests
  Tracking.InjectedLatencyShowsInRttAndAl RemoteNet.DelayAddsTwiceTheOneWayDelayToRtt
  RemoteNet.NetemDelayAddsTwiceTheOneWayDelayToRtt StreamNet.DelayShowsInCsSsAndRtt
  VncViewer.InputsAreMatchedThroughTheStockViewer Xpra.InputsAreMatchedThroughTheStockClient
  TwoHosts.XvncSessionAssemblesOneHostsFilesAndStages)
# One call per name: in a CTest script, a set_tests_properties that names a test the folder lacks
# sets nothing for any of the names it lists, so one call over the whole list would label nothing.
foreach(t IN LISTS pictor_slow_tests)
  set_tests_properties("${t}" PROPERTIES LABELS "system;slow" COST 30)
endforeach()
foreach(t IN LISTS pictor_serial_tests)
  set_tests_properties("${t}" PROPERTIES LABELS "system;slow" COST 30 RUN_SERIAL TRUE)
endforeach()
