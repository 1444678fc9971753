/// @file Schema.hpp
/// @brief The attributes of the model file's elements, declared once (internal): one table
///        (Schema.cpp) of element, attribute, type, enum values, default, whether required,
///        the context that allows it and a one-line doc. The loader's unknown-attribute checks
///        (Reader::check) and its enum choices read it; Tests/IO/xml/SchemaTableTest.cpp
///        compares it with IO/schema/nsdyn.xsd both ways. The attributes of <options> and its
///        groups are Numerics' option table (nsd_option_table), not this one.
///
/// A new attribute: one row in Schema.cpp (the rows of an element are in the order its
/// error messages list them), the attribute in IO/schema/nsdyn.xsd and its line in
/// doc/xml-reference.md; the reader then reads it where the element is built.
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

/// The table, row by row.
const std::vector<Attribute>& attributes();
/// The elements and shared types the table knows (some have no attribute).
const std::vector<Element>& elements();

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
