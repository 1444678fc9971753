/// @file
/// NSDYN_IO_API: the mark of the public C++ API of libnsdyn_io.
///
/// The IO library is compiled with hidden symbol visibility: only classes and functions
/// declared with NSDYN_IO_API in its installed headers are exported. Its build defines
/// NSDYN_IO_BUILDING; users of the shared library define nothing.
#pragma once

#if defined(_WIN32) || defined(__CYGWIN__)
#ifdef NSDYN_IO_BUILDING
#define NSDYN_IO_API __declspec(dllexport)
#else
#define NSDYN_IO_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define NSDYN_IO_API __attribute__((visibility("default")))
#else
#define NSDYN_IO_API
#endif
