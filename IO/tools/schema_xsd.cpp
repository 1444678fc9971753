// IO/schema/nsdyn.xsd written from the schema table: the value types, then the named types and
// the top-level elements in the order of the structure table, each element's attributes in the
// order of its rows.

#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nsdyn/nsd_options.h>

#include "Schema.hpp"
#include "schema_content.hpp"
#include "schema_gen.hpp"

namespace nsdyn::io::tools {

namespace schema = nsdyn::io::xml::schema;

namespace {

const char* const kValueTypes = R"(  <!-- ===== value types ===== -->
  <!-- a number or an arithmetic expression of parameters -->
  <xs:simpleType name="numberText">
    <xs:restriction base="xs:string">
      <xs:minLength value="1"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="boolText">
    <xs:restriction base="xs:string">
      <xs:enumeration value="true"/>
      <xs:enumeration value="false"/>
      <xs:enumeration value="1"/>
      <xs:enumeration value="0"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="nameText">
    <xs:restriction base="xs:string">
      <xs:pattern value="[A-Za-z_][A-Za-z0-9_]*"/>
    </xs:restriction>
  </xs:simpleType>
  <!-- names of files (the run, the outputs): '-' allowed too -->
  <xs:simpleType name="fileNameText">
    <xs:restriction base="xs:string">
      <xs:pattern value="[A-Za-z_][A-Za-z0-9_\-]*"/>
    </xs:restriction>
  </xs:simpleType>
)";

std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// An XML comment may not hold "--".
std::string comment(const std::string& s) {
  std::string out = s;
  for (std::size_t at; (at = out.find("--")) != std::string::npos;) out.replace(at, 2, "- -");
  return out;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t at; (at = text.find(sep, from)) != std::string::npos; from = at + 1)
    out.push_back(text.substr(from, at - from));
  out.push_back(text.substr(from));
  return out;
}

class Writer {
 public:
  Writer() {
    for (const schema::Structure& s : schema::structure()) structure_[s.element] = &s;
  }

  std::string document() {
    out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<!-- nsdyn model files, version 1. Reference: doc/xml-reference.md.\n"
            "     Generated from the schema table IO/src/xml/Schema*.cpp by nsdyn_schema_gen:\n"
            "     do not edit: the build target schema-update rewrites it. -->\n"
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" "
            "elementFormDefault=\"unqualified\">\n\n"
         << kValueTypes;
    for (const schema::Structure& s : schema::structure()) {
      if (s.kind == schema::Kind::Local) continue;
      const std::string name = s.element;
      out_ << "\n";
      if (name == "options") {
        options(1);
        continue;
      }
      out_ << pad(1) << "<!-- " << comment(schema::element(name).doc) << " -->\n";
      if (s.kind == schema::Kind::Type) {
        complexType(1, name, " name=\"" + name + "\"");
      } else {
        declaration(1, name, "");
      }
    }
    out_ << "</xs:schema>\n";
    return out_.str();
  }

 private:
  std::ostringstream out_;
  std::map<std::string, const schema::Structure*> structure_;

  static std::string pad(int level) {
    return std::string(2 * static_cast<std::size_t>(level), ' ');
  }

  std::string contentOf(const std::string& name) const {
    auto it = structure_.find(name);
    return it == structure_.end() ? std::string() : std::string(it->second->content);
  }

  schema::Kind kindOf(const std::string& name) const {
    auto it = structure_.find(name);
    return it == structure_.end() ? schema::Kind::Local : it->second->kind;
  }

  // Text content, here or by a base.
  bool simple(const std::string& name) const {
    if (contentOf(name) == "text") return true;
    const std::string base = schema::element(name).base;
    return !base.empty() && simple(base);
  }

  std::vector<const schema::Attribute*> ownRows(const std::string& name) const {
    std::vector<const schema::Attribute*> rows;
    for (const schema::Attribute& a : schema::attributes())
      if (name == a.element) rows.push_back(&a);
    return rows;
  }

  static std::string occurs(const Particle& p) {
    std::string s;
    if (p.min != 1) s += " minOccurs=\"" + std::to_string(p.min) + "\"";
    if (p.max != 1)
      s += " maxOccurs=\"" + (p.max < 0 ? std::string("unbounded") : std::to_string(p.max)) + "\"";
    return s;
  }

  static const char* xsdType(schema::Type t) {
    switch (t) {
      case schema::Type::Number:
      case schema::Type::Integer:
        return "numberText";
      case schema::Type::Bool:
        return "boolText";
      case schema::Type::Name:
        return "nameText";
      case schema::Type::FileName:
        return "fileNameText";
      default:
        return "xs:string";
    }
  }

  void enumeration(int level, const std::vector<std::string>& values) {
    out_ << pad(level) << "<xs:simpleType>\n"
         << pad(level + 1) << "<xs:restriction base=\"xs:string\">\n";
    for (const std::string& v : values)
      out_ << pad(level + 2) << "<xs:enumeration value=\"" << escaped(v) << "\"/>\n";
    out_ << pad(level + 1) << "</xs:restriction>\n" << pad(level) << "</xs:simpleType>\n";
  }

  void attribute(int level, const schema::Attribute& a) {
    const std::string use = a.required ? " use=\"required\"" : "";
    out_ << pad(level) << "<xs:attribute name=\"" << a.name << "\"";
    if (a.type != schema::Type::Enum) {
      out_ << " type=\"" << xsdType(a.type) << "\"" << use << "/>\n";
      return;
    }
    out_ << use << ">\n";
    enumeration(level + 1, split(a.values, '|'));
    out_ << pad(level) << "</xs:attribute>\n";
  }

  void attributes(int level, const std::string& name) {
    for (const schema::Attribute* a : ownRows(name)) attribute(level, *a);
  }

  void particle(int level, const Particle& p) {
    if (p.kind == Particle::Kind::Element) {
      element(level, p);
      return;
    }
    const char* tag = p.kind == Particle::Kind::Sequence ? "xs:sequence"
                      : p.kind == Particle::Kind::Choice ? "xs:choice"
                                                         : "xs:all";
    out_ << pad(level) << "<" << tag << occurs(p) << ">\n";
    for (const Particle& c : p.children) particle(level + 1, c);
    out_ << pad(level) << "</" << tag << ">\n";
  }

  // A child element: of a named type, a reference to a top-level one, or declared here.
  void element(int level, const Particle& p) {
    if (!p.type.empty()) {
      out_ << pad(level) << "<xs:element name=\"" << p.name << "\" type=\"" << p.type << "\""
           << occurs(p) << "/>\n";
    } else if (p.name == "options" || kindOf(p.name) == schema::Kind::Global) {
      out_ << pad(level) << "<xs:element ref=\"" << p.name << "\"" << occurs(p) << "/>\n";
    } else {
      declaration(level, p.name, occurs(p));
    }
  }

  // <xs:element name=...>: of its base's type when it adds nothing to it.
  void declaration(int level, const std::string& name, const std::string& occurrence) {
    const std::string base = schema::element(name).base;
    if (!base.empty() && ownRows(name).empty() && contentOf(name).empty()) {
      out_ << pad(level) << "<xs:element name=\"" << name << "\" type=\"" << base << "\""
           << occurrence << "/>\n";
      return;
    }
    out_ << pad(level) << "<xs:element name=\"" << name << "\"" << occurrence << ">\n";
    complexType(level + 1, name, "");
    out_ << pad(level) << "</xs:element>\n";
  }

  void complexType(int level, const std::string& name, const std::string& named) {
    const std::string base = schema::element(name).base;
    const std::string content = contentOf(name);
    const Particle model = parseContent(name, content);
    const bool hasModel = !model.children.empty() || model.kind == Particle::Kind::Element;
    const bool hasRows = !ownRows(name).empty();
    if (base.empty() && content != "text" && !hasModel && !hasRows) {
      out_ << pad(level) << "<xs:complexType" << named << "/>\n";
      return;
    }
    out_ << pad(level) << "<xs:complexType" << named << ">\n";
    if (content == "text" || (!base.empty() && simple(base))) {
      out_ << pad(level + 1) << "<xs:simpleContent>\n"
           << pad(level + 2) << "<xs:extension base=\"" << (base.empty() ? "xs:string" : base)
           << "\">\n";
      attributes(level + 3, name);
      out_ << pad(level + 2) << "</xs:extension>\n" << pad(level + 1) << "</xs:simpleContent>\n";
    } else if (!base.empty()) {
      out_ << pad(level + 1) << "<xs:complexContent>\n"
           << pad(level + 2) << "<xs:extension base=\"" << base << "\">\n";
      if (hasModel) particle(level + 3, model);
      attributes(level + 3, name);
      out_ << pad(level + 2) << "</xs:extension>\n" << pad(level + 1) << "</xs:complexContent>\n";
    } else {
      if (hasModel) particle(level + 1, model);
      attributes(level + 1, name);
    }
    out_ << pad(level) << "</xs:complexType>\n";
  }

  // <options>: an attribute per option of Numerics' table, a child per group ("nsgs.seed" is
  // <nsgs seed>), '_' written '-'; warm start is the problem's own attribute.
  void options(int level) {
    int count = 0;
    const NsdOptionEntry* table = nsd_option_table(&count);
    std::vector<std::string> groups;
    std::map<std::string, std::vector<std::pair<std::string, const NsdOptionEntry*>>> rows;
    for (int k = 0; k < count; ++k) {
      std::string name = table[k].name;
      if (name == "warm_start") continue;
      for (char& c : name)
        if (c == '_') c = '-';
      const auto dot = name.find('.');
      const std::string group = dot == std::string::npos ? "" : name.substr(0, dot);
      if (!rows.count(group) && !group.empty()) groups.push_back(group);
      rows[group].emplace_back(dot == std::string::npos ? name : name.substr(dot + 1), &table[k]);
    }
    out_ << pad(level) << "<!-- Numerics solver options (NsdSolverOptions, nsd_option_table) -->\n"
         << pad(level) << "<xs:element name=\"options\">\n"
         << pad(level + 1) << "<xs:complexType>\n"
         << pad(level + 2) << "<xs:all>\n";
    for (const std::string& g : groups) {
      out_ << pad(level + 3) << "<xs:element name=\"" << g << "\" minOccurs=\"0\">\n"
           << pad(level + 4) << "<xs:complexType>\n";
      for (const auto& [name, entry] : rows[g]) option(level + 5, name, *entry);
      out_ << pad(level + 4) << "</xs:complexType>\n" << pad(level + 3) << "</xs:element>\n";
    }
    out_ << pad(level + 2) << "</xs:all>\n";
    for (const auto& [name, entry] : rows[""]) option(level + 2, name, *entry);
    out_ << pad(level + 1) << "</xs:complexType>\n" << pad(level) << "</xs:element>\n";
  }

  void option(int level, const std::string& name, const NsdOptionEntry& e) {
    out_ << pad(level) << "<xs:attribute name=\"" << name << "\"";
    if (e.type == NSD_OPTION_CHOICE) {
      out_ << ">\n";
      enumeration(level + 1, split(e.choices, ','));
      out_ << pad(level) << "</xs:attribute>\n";
    } else {
      out_ << " type=\"" << (e.type == NSD_OPTION_BOOL ? "boolText" : "numberText") << "\"/>\n";
    }
  }
};

}  // namespace

std::string xsd() {
  return Writer().document();
}

}  // namespace nsdyn::io::tools
