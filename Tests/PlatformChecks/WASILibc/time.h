// <time.h> for Sources/_MulticastShims/shims.c, compiled for WASI by Scripts/check-other-platforms.sh.
#include "WASILibc.h"
