#include "ripple_support.h"

_Thread_local void *ripple_current_broker_storage = 0;

_Thread_local const ripple_access_frame *ripple_access_top = 0;
