/// @file Writers.hpp
/// @brief Result files of a run: CSV, HDF5 (one dataset per output), VTK
///        (.vtp frames listed in a .pvd) and a gnuplot PNG.
#ifndef NSDYN_IO_WRITERS_HPP
#define NSDYN_IO_WRITERS_HPP

#include <string>
#include <vector>

#include "nsdyn/io/IoExport.hpp"
#include "nsdyn/io/Outputs.hpp"

namespace nsdyn::io {

/// `dir/file` (just @p file when @p dir is empty or ".").
NSDYN_IO_API std::string joinPath(const std::string& dir, const std::string& file);

/// Create @p dir and its parents; nsdyn::Error if that fails.
NSDYN_IO_API void makeDirectories(const std::string& dir);

/// Write @p table to @p path: a header line of the column names separated
/// by commas, then one line per row (its spooled rows, then those in memory),
/// values as %.17g (exact round trip).
/// Written to a temporary file renamed at the end: a failure leaves no
/// partial file. nsdyn::Error on failure.
NSDYN_IO_API void writeCsv(const Table& table, const std::string& path);

/// Write every table to the HDF5 file @p path, one 2-D dataset of doubles
/// (rows x columns, spooled rows first) per table named as the table, with a string-array
/// attribute "columns" holding the column names. Temporary file renamed at
/// the end; nsdyn::Error on failure.
NSDYN_IO_API void writeHdf5(const std::vector<Table>& tables, const std::string& path);

/// Write the VTK frames: @p dir/@p name_frame_NNNNNN.vtp (PolyData, one vertex
/// per body at its position, point data "radius", "body" (index),
/// "orientation" (4 components: the unit quaternion q0 q1 q2 q3, scalar first,
/// body → world; (1, 0, 0, 0) for systems that are not rigid bodies),
/// "velocity" and "angular_velocity" (3 components, world frame)) and
/// @p dir/@p name.pvd listing them with their times: the first @p spooledFrames
/// frames from the spool file @p spool (Recorder::frameSpoolPath()), then
/// @p frames. Returns the .pvd path; nsdyn::Error on failure.
NSDYN_IO_API std::string writeVtk(const std::vector<VtkFrame>& frames, const VtkSpec& spec,
                                  const std::string& dir, const std::string& name,
                                  const std::string& spool = "", std::size_t spooledFrames = 0);

/// Plot @p output's curves from the CSV file @p csvPath into @p pngPath with
/// gnuplot (pngcairo): one panel per distinct panel label, against column 0.
/// Returns false (nothing drawn) when gnuplot is missing or fails.
NSDYN_IO_API bool plotPng(const OutputSpec& output, const std::string& csvPath,
                          const std::string& pngPath);

}  // namespace nsdyn::io

#endif
