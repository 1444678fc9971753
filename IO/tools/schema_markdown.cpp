// The attribute tables of doc/xml-reference.md written from the schema table: the page's prose
// is kept, the lines between a pair of markers
//   <!-- generated from IO/src/xml/Schema.cpp: begin element NAME -->
//   <!-- generated from IO/src/xml/Schema.cpp: end element NAME -->
// are the table of NAME's attributes (its base's first), one row per attribute of the table.

#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "Schema.hpp"
#include "schema_gen.hpp"

namespace nsdyn::io::tools {

namespace schema = nsdyn::io::xml::schema;

namespace {

const std::string kBegin = "<!-- generated from IO/src/xml/Schema.cpp: begin element ";
const std::string kEnd = "<!-- generated from IO/src/xml/Schema.cpp: end element ";
const std::string kClose = " -->";

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// The value column: what the attribute's text is, whether it is required, where it applies.
std::string value(const schema::Attribute& a) {
  std::string s;
  switch (a.type) {
    case schema::Type::Number:
      s = "number";
      break;
    case schema::Type::Integer:
      s = "integer";
      break;
    case schema::Type::Bool:
      s = "boolean";
      break;
    case schema::Type::Enum: {
      s = "one of";
      std::string values = a.values;
      for (std::size_t from = 0;;) {
        const std::size_t bar = values.find('|', from);
        s += (from == 0 ? " `" : ", `") + values.substr(from, bar - from) + "`";
        if (bar == std::string::npos) break;
        from = bar + 1;
      }
      break;
    }
    case schema::Type::Name:
      s = "name";
      break;
    case schema::Type::FileName:
      s = "file name";
      break;
    case schema::Type::Vector:
      s = "vector";
      break;
    case schema::Type::Names:
      s = "names";
      break;
    case schema::Type::Expression:
      s = "expression";
      break;
    case schema::Type::Text:
      s = "text";
      break;
  }
  if (a.required) s += ", required";
  if (a.context == schema::Context::TimeStepping) s += ", time stepping only";
  if (a.context == schema::Context::EventDriven) s += ", EventDriven only";
  return s;
}

std::string table(const std::string& name) {
  const schema::Element& e = schema::element(name);
  std::map<std::string, std::string> wording;
  for (const schema::Wording& w : schema::wordings())
    if (name == w.element) wording[w.attribute] = w.doc;
  std::ostringstream out;
  out << "| attribute | value | meaning |\n| --- | --- | --- |\n";
  for (const std::string& owner : {std::string(e.base), name})
    for (const schema::Attribute& a : schema::attributes()) {
      if (owner.empty() || owner != a.element) continue;
      auto w = wording.find(a.name);
      out << "| `" << a.name << "` | " << cell(value(a)) << " | "
          << cell(w != wording.end() ? w->second : a.doc) << " |\n";
    }
  return out.str();
}

bool hasAttributes(const std::string& name) {
  const schema::Element& e = schema::element(name);
  for (const schema::Attribute& a : schema::attributes())
    if (name == a.element || e.base == std::string(a.element)) return true;
  return false;
}

// The element of a marker line ("" when the line is no marker of this kind).
std::string marked(const std::string& line, const std::string& start) {
  if (line.rfind(start, 0) != 0 || line.size() < start.size() + kClose.size() ||
      line.compare(line.size() - kClose.size(), kClose.size(), kClose) != 0)
    return "";
  return line.substr(start.size(), line.size() - start.size() - kClose.size());
}

}  // namespace

std::string markdown(const std::string& page, const std::string& path) {
  std::istringstream in(page);
  std::ostringstream out;
  std::set<std::string> done;
  std::string line, open;
  int number = 0, openedAt = 0;
  const auto fail = [&](int at, const std::string& what) {
    throw std::runtime_error(path + ":" + std::to_string(at) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++number;
    const std::string begin = marked(line, kBegin), end = marked(line, kEnd);
    if (!open.empty()) {  // inside a block: its old lines are dropped
      if (!begin.empty()) fail(number, "a block begins inside the block of <" + open + ">");
      if (end.empty()) continue;
      if (end != open) fail(number, "end of <" + end + "> closes the block of <" + open + ">");
      out << table(open) << line << "\n";
      open.clear();
      continue;
    }
    if (!end.empty()) fail(number, "end of <" + end + "> without its begin");
    out << line << "\n";
    if (begin.empty()) continue;
    try {
      schema::element(begin);
    } catch (const std::logic_error&) {
      fail(number, "<" + begin + "> is not an element of the schema table (IO/src/xml/Schema.cpp)");
    }
    if (!done.insert(begin).second) fail(number, "a second block for <" + begin + ">");
    open = begin;
    openedAt = number;
  }
  if (!open.empty()) fail(openedAt, "the block of <" + open + "> has no end marker");
  for (const schema::Element& e : schema::elements()) {
    bool type = false;
    for (const schema::Structure& s : schema::structure())
      if (e.name == std::string(s.element)) type = s.kind == schema::Kind::Type;
    if (!type && hasAttributes(e.name) && !done.count(e.name))
      throw std::runtime_error(path + ": no generated block for <" + e.name +
                               ">: add the markers\n  " + kBegin + e.name + kClose + "\n  " + kEnd +
                               e.name + kClose + "\nunder its heading");
  }
  return out.str();
}

}  // namespace nsdyn::io::tools
