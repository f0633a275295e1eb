# Included by CTest after test discovery: timing-sensitive tests run serially.
set_tests_properties(RemoteNet.DelayAddsTwiceTheOneWayDelayToRtt RemoteNet.NetemDelayAddsTwiceTheOneWayDelayToRtt
                     PROPERTIES RUN_SERIAL TRUE)
