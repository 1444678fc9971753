/// @file
/// NSDYN_KERNEL_API: the mark of the public C++ API of libnsdyn_kernel.
///
/// The Kernel library is compiled with hidden symbol visibility: only classes and functions
/// declared with NSDYN_KERNEL_API in its installed headers are exported. Its build defines
/// NSDYN_KERNEL_BUILDING; users of the shared library define nothing.
#pragma once

#if defined(_WIN32) || defined(__CYGWIN__)
#ifdef NSDYN_KERNEL_BUILDING
#define NSDYN_KERNEL_API __declspec(dllexport)
#else
#define NSDYN_KERNEL_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define NSDYN_KERNEL_API __attribute__((visibility("default")))
#else
#define NSDYN_KERNEL_API
#endif
