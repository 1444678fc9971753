/**
 * @file nsd_export.h
 * @brief NSD_API, the mark of the public C API.
 *
 * The library is compiled with hidden symbol visibility: only the functions
 * declared with NSD_API in the headers of include/nsdyn are exported from
 * libnsdyn_numerics. The build of the library defines NSDYN_NUMERICS_BUILDING;
 * users of the shared library define nothing.
 */
#ifndef NSDYN_NSD_EXPORT_H
#define NSDYN_NSD_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#ifdef NSDYN_NUMERICS_BUILDING
#define NSD_API __declspec(dllexport)
#else
#define NSD_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define NSD_API __attribute__((visibility("default")))
#else
#define NSD_API
#endif

#endif
