// What Multicast uses from the Windows SDK, declared as its headers declare it, so that the Windows branches
// compile for x86_64-unknown-windows-msvc on a machine without the SDK (Scripts/check-other-platforms.sh): the
// lock's SRWLOCK branch (Sources/_MulticastCore/Lock.swift) through the module, and the shims' clock
// (Sources/_MulticastShims/shims.c) through <windows.h>, which includes this file. The SDK's headers carry no
// nullability, so Swift imports their pointers as implicitly unwrapped optionals, as here.
//
// Add a declaration here only when a Windows branch uses it, and only as the named header declares it.
#ifndef MULTICAST_WINSDK_STAND_IN_H
#define MULTICAST_WINSDK_STAND_IN_H

#define WINAPI __stdcall
#define WINBASEAPI __declspec(dllimport)

// <minwindef.h> and <winnt.h>.
typedef void *PVOID;
typedef void VOID;
typedef int BOOL;
typedef unsigned long DWORD;
typedef long LONG;
typedef long long LONGLONG;

typedef union _LARGE_INTEGER {
    struct {
        DWORD LowPart;
        LONG HighPart;
    } DUMMYSTRUCTNAME;
    struct {
        DWORD LowPart;
        LONG HighPart;
    } u;
    LONGLONG QuadPart;
} LARGE_INTEGER;

// <winnt.h>: a slim reader/writer lock is one pointer-sized word, zero when unlocked.
typedef struct _RTL_SRWLOCK {
    PVOID Ptr;
} RTL_SRWLOCK, *PRTL_SRWLOCK;

// <synchapi.h>: SRWLOCK is RTL_SRWLOCK; it needs no destruction.
typedef RTL_SRWLOCK SRWLOCK, *PSRWLOCK;

WINBASEAPI VOID WINAPI InitializeSRWLock(PSRWLOCK SRWLock);
WINBASEAPI VOID WINAPI AcquireSRWLockExclusive(PSRWLOCK SRWLock);
WINBASEAPI VOID WINAPI ReleaseSRWLockExclusive(PSRWLOCK SRWLock);

// <profileapi.h>: the performance counter, the shims' monotonic clock.
WINBASEAPI BOOL WINAPI QueryPerformanceCounter(LARGE_INTEGER *lpPerformanceCount);
WINBASEAPI BOOL WINAPI QueryPerformanceFrequency(LARGE_INTEGER *lpFrequency);

#endif
