// <time.h> for Sources/_MulticastShims/shims.c, compiled for Android by Scripts/check-other-platforms.sh.
#include "Android.h"
