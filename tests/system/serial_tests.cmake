# Included by CTest after test discovery: timing-sensitive tests run serially.
set_tests_properties(Tracking.InjectedLatencyShowsInRttAndAl PROPERTIES RUN_SERIAL TRUE)
