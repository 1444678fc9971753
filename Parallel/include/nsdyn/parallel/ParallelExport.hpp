/// @file
/// NSDYN_PARALLEL_API: the mark of the public C++ API of libnsdyn_parallel.
///
/// The Parallel library is compiled with hidden symbol visibility: only classes and functions
/// declared with NSDYN_PARALLEL_API in its installed headers are exported. Its build defines
/// NSDYN_PARALLEL_BUILDING; users of the shared library define nothing.
#pragma once

#if defined(_WIN32) || defined(__CYGWIN__)
#ifdef NSDYN_PARALLEL_BUILDING
#define NSDYN_PARALLEL_API __declspec(dllexport)
#else
#define NSDYN_PARALLEL_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define NSDYN_PARALLEL_API __attribute__((visibility("default")))
#else
#define NSDYN_PARALLEL_API
#endif
