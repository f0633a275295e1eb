# Included by CTest after test discovery: timing-sensitive tests run serially.
set_tests_properties(VncViewer.InputsAreMatchedThroughTheStockViewer PROPERTIES RUN_SERIAL TRUE)
set_tests_properties(Xpra.InputsAreMatchedThroughTheStockClient PROPERTIES RUN_SERIAL TRUE)
