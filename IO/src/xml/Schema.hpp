/// @file Schema.hpp
/// @brief The attributes of the model file's elements, declared once (internal): one table
///        (rows in SchemaModel.cpp, SchemaScenes.cpp, SchemaSimulation.cpp) of element,
///        attribute, type, enum values, default, whether required, the context that allows it
///        and its doc, and the content of each element (SchemaStructure.cpp). The loader's
///        unknown-attribute checks (Reader::check) and its enum choices read it;
///        nsdyn_schema_gen (IO/tools) writes IO/schema/nsdyn.xsd and the attribute tables of
///        doc/xml-reference.md from it (the test io_xml/schema_files_current keeps them
///        current); Tests/IO/xml/SchemaTableTest.cpp compares it with the XSD both ways. The
///        attributes of <options> and its groups are Numerics' option table
///        (nsd_option_table), not this one.
///
/// A new attribute: one row in its family's file (the rows of an element are in the order
/// its error messages list them), then `cmake --build build --target schema-update`; the
/// reader then reads it where the element is built. A new element: its row in Schema.cpp,
/// its content in SchemaStructure.cpp and its place in its parent's content, and a section
/// with the generated-block markers in doc/xml-reference.md.
#ifndef NSDYN_IO_XML_SCHEMA_HPP
#define NSDYN_IO_XML_SCHEMA_HPP

#include <string>
#include <vector>

#pragma GCC visibility push(hidden)

namespace nsdyn::io::xml::schema {

/// What an attribute's text is.
enum class Type {
  Number,      ///< a number or an expression of the parameters (numberText in the XSD)
  Integer,     ///< a number that must be an integer (numberText)
  Bool,        ///< true, false, 1 or 0 (boolText)
  Enum,        ///< one of Attribute::values (an enumeration)
  Name,        ///< letters, digits and '_', not starting with a digit (nameText)
  FileName,    ///< as Name, '-' allowed too (fileNameText)
  Vector,      ///< entries separated as in vector text, e.g. "0 0 -9.81" (xs:string)
  Names,       ///< names separated by blanks (xs:string)
  Expression,  ///< an output expression of the model's names (xs:string)
  Text         ///< other text: a path, a title, a solver name (xs:string)
};

/// Where an attribute is allowed, beyond its element.
enum class Context {
  Any,           ///< wherever the element is
  TimeStepping,  ///< in a time-stepping <simulation> (with or without projection)
  EventDriven    ///< in an EventDriven <simulation>
};

/// One row of the table.
struct Attribute {
  const char* element;  ///< element name, or shared type (vector, matrix, functionRef, ...)
  const char* name;     ///< attribute name
  Type type;
  const char* values;    ///< Type::Enum: the values separated by '|'; else ""
  const char* fallback;  ///< the default as a user reads it; "" when required or none
  bool required;
  Context context;
  const char* doc;  ///< one line
};

/// An element (or shared type) of the table: its attributes are those of @c base (when not
/// empty), then its own rows, in order.
struct Element {
  const char* name;
  const char* base;  ///< "" or a shared type: problem, integrator
  const char* doc;
};

/// The text of an inherited attribute (of a base: problem, integrator) on one element, where
/// the page words it otherwise than the base's row ("as for <LCP>").
struct Wording {
  const char* element;
  const char* attribute;
  const char* doc;
};

/// How the XSD declares an element of the table.
enum class Kind {
  Local,   ///< inside its parent's declaration
  Global,  ///< at the top level, referenced by its parents
  Type     ///< a named complex type (vector, problem, ...): elements are of it
};

/// What may be inside an element: text, or child elements in a small notation.
///   ""        nothing (attributes only)
///   "text"    element text (the XSD's simple content)
///   seq(a, b) in this order; choice(a, b) one of them; all(a, b) each at most once, any order
///   a suffix  ? optional, * any number, + one or more, {0,2} from 0 to 2 (on items and groups)
///   an item   an element of the table (declared Local inline, Global by reference), or
///             name:type for element data of a named type (q0:vector, mass:numberText), or
///             options (Numerics' option table)
/// An element with a base (Element::base) extends it: its content follows the base's.
struct Structure {
  const char* element;
  Kind kind;
  const char* content;
};

/// The table, row by row.
const std::vector<Attribute>& attributes();
/// The elements and shared types the table knows (some have no attribute).
const std::vector<Element>& elements();
/// The element or shared type named @p name; std::logic_error when absent.
const Element& element(const std::string& name);
/// The page's own wordings of inherited attributes.
const std::vector<Wording>& wordings();
/// The content of the elements that have one, the top-level ones first: types, then global
/// elements, in the order of the XSD (SchemaStructure.cpp).
const std::vector<Structure>& structure();

/// Names of the attributes @p element allows in @p context (its base's first), in the order of
/// the error messages. An element the table does not know is a programming error
/// (std::logic_error).
const std::vector<std::string>& allowed(const std::string& element, Context context = Context::Any);
/// The row of @p attribute of @p element (or of its base); std::logic_error when absent.
const Attribute& find(const std::string& element, const std::string& attribute);
/// The values of an enum attribute, in order.
std::vector<std::string> values(const std::string& element, const std::string& attribute);

}  // namespace nsdyn::io::xml::schema

#pragma GCC visibility pop

#endif
