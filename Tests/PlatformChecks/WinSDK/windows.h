// <windows.h> for Sources/_MulticastShims/shims.c, compiled for Windows by Scripts/check-other-platforms.sh.
#include "WinSDK.h"
