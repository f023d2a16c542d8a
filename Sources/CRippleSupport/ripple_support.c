#include "ripple_support.h"

_Thread_local void *ripple_current_broker_storage = 0;
