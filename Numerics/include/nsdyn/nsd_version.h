/** @file nsd_version.h @brief Library version. */
#ifndef NSDYN_NSD_VERSION_H
#define NSDYN_NSD_VERSION_H
#define NSD_VERSION_MAJOR 0
#define NSD_VERSION_MINOR 1
#define NSD_VERSION_PATCH 0
#define NSD_VERSION_STRING "0.1.0"
#endif
