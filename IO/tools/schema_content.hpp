/// @file schema_content.hpp
/// @brief The content notation of the schema table (Structure::content, Schema.hpp) parsed
///        into a tree, for nsdyn_schema_gen.
#ifndef NSDYN_IO_TOOLS_SCHEMA_CONTENT_HPP
#define NSDYN_IO_TOOLS_SCHEMA_CONTENT_HPP

#include <string>
#include <vector>

namespace nsdyn::io::tools {

/// A particle of a content model: a group (sequence, choice, all) or an element.
struct Particle {
  enum class Kind { Sequence, Choice, All, Element } kind = Kind::Element;
  std::string name;  ///< Element: the element's name
  std::string type;  ///< Element: the named type after ':' ("" for an element of the table)
  int min = 1;
  int max = 1;  ///< -1: unbounded
  std::vector<Particle> children;
};

/// The content of @p text ("" and "text" have none: an empty Sequence). Throws
/// std::invalid_argument naming @p owner and the position on a malformed text.
Particle parseContent(const std::string& owner, const std::string& text);

}  // namespace nsdyn::io::tools

#endif
