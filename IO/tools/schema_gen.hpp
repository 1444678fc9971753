/// @file schema_gen.hpp
/// @brief What nsdyn_schema_gen writes from the schema table (IO/src/xml/Schema.hpp).
#ifndef NSDYN_IO_TOOLS_SCHEMA_GEN_HPP
#define NSDYN_IO_TOOLS_SCHEMA_GEN_HPP

#include <string>

namespace nsdyn::io::tools {

/// IO/schema/nsdyn.xsd: the table's elements, attributes and contents, and <options> from
/// Numerics' option table.
std::string xsd();

/// @p page (the text of doc/xml-reference.md, read from @p path) with each generated block
/// rewritten from the table. Throws std::runtime_error naming @p path and the line for an
/// unmatched marker, an element the table does not know, or an element of the table with
/// attributes and no block.
std::string markdown(const std::string& page, const std::string& path);

}  // namespace nsdyn::io::tools

#endif
