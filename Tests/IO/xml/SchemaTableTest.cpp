// The loader's schema table (IO/src/xml/Schema.cpp) and the schema IO/schema/nsdyn.xsd
// declare the same attributes: per element, both ways, with the same types, enum values and
// required attributes. The attributes of <options> and its groups are compared with Numerics'
// option table, which the loader reads them from. And the loader's unknown-attribute messages
// list the table's attributes for the context (an EventDriven LCP has a role, a time-stepping
// problem a mode).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <pugixml.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nsdyn/nsd_options.h>
#include <nsdyn/io/XmlLoader.hpp>

#include "Schema.hpp"
#include "xml_fixture.hpp"

namespace schema = nsdyn::io::xml::schema;

namespace {

const std::string kSource = NSDYN_SOURCE_DIR;

std::string local(const char* qualified) {
  std::string s = qualified;
  const auto colon = s.find(':');
  return colon == std::string::npos ? s : s.substr(colon + 1);
}

using AttributeNodes = std::map<std::string, pugi::xml_node>;  // name -> <xs:attribute>

// The XSD's named complex types.
struct Xsd {
  pugi::xml_document doc;
  std::map<std::string, pugi::xml_node> types;

  std::string text;

  Xsd() {
    const std::string path = kSource + "/IO/schema/nsdyn.xsd";
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    CPPUNIT_ASSERT_MESSAGE(path, doc.load_string(text.c_str()));
    for (pugi::xml_node t : doc.document_element().children())
      if (local(t.name()) == "complexType") types[t.attribute("name").value()] = t;
  }

  // "nsdyn.xsd:LINE" of a node.
  std::string at(const pugi::xml_node& n) const {
    const auto offset = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, n.offset_debug()));
    return "nsdyn.xsd:" +
           std::to_string(
               1 + std::count(text.begin(), text.begin() + std::min(offset, text.size()), '\n'));
  }

  // Attributes declared under @p node, following extension bases, not descending into
  // nested element declarations (their attributes are their own).
  void attributes(const pugi::xml_node& node, AttributeNodes& out) const {
    for (pugi::xml_node c : node.children()) {
      const std::string name = local(c.name());
      if (name == "element") continue;
      if (name == "attribute") out[c.attribute("name").value()] = c;
      if (name == "extension") {
        auto it = types.find(c.attribute("base").value());
        if (it != types.end()) attributes(it->second, out);
      }
      attributes(c, out);
    }
  }
};

// One XSD element declaration (or named type) as the table sees it.
struct Declared {
  std::string key;    // the table's element (an element name or a shared type)
  std::string where;  // for messages
  AttributeNodes attributes;
  bool alias = false;  // the element name of a declaration of a named type (q0 of type vector)
};

// Every element declaration outside <options> (whose attributes are Numerics' table), keyed
// as the table keys them: an inline type by the element's name; a named complex type by the
// type's name (vectorOrFunction and matrixOrFunction are the two forms the loader reads:
// element text or a function), and by the element's name too when the table has it
// (EulerMoreauOSI, MLCP, Relay); a simple type (a number as text) has no attribute.
std::vector<Declared> declarations(const Xsd& xsd) {
  std::vector<Declared> out;
  for (pugi::xpath_node x : xsd.doc.select_nodes("//*[local-name()='element'][@name]")) {
    const pugi::xml_node e = x.node();
    bool inOptions = false;
    for (pugi::xml_node p = e.parent(); p; p = p.parent())
      if (local(p.name()) == "element" && std::string(p.attribute("name").value()) == "options")
        inOptions = true;
    const std::string name = e.attribute("name").value();
    if (inOptions || name == "options") continue;
    const std::string where = "<" + name + "> (" + xsd.at(e) + ")";
    if (e.attribute("type")) {
      const std::string type = e.attribute("type").value();
      auto it = xsd.types.find(type);
      if (it == xsd.types.end()) {  // a simple type: no attribute
        out.push_back({name, where, {}});
        continue;
      }
      Declared d{type, where, {}};
      xsd.attributes(it->second, d.attributes);
      out.push_back(d);
      d.key = name;
      d.alias = true;
      out.push_back(d);
    } else {
      Declared d{name, where, {}};
      xsd.attributes(e, d.attributes);
      out.push_back(d);
    }
  }
  return out;
}

bool inTable(const std::string& element) {
  for (const schema::Element& e : schema::elements())
    if (element == e.name) return true;
  return false;
}

// The table's elements a key stands for (the XSD's unions of two forms).
std::vector<std::string> tableElements(const std::string& key) {
  if (key == "vectorOrFunction") return {"vector", "functionRef"};
  if (key == "matrixOrFunction") return {"matrix", "functionRef"};
  if (inTable(key)) return {key};
  return {};
}

// The table's attributes of @p key in any context.
std::set<std::string> tableAttributes(const std::string& key) {
  std::set<std::string> out;
  for (const std::string& element : tableElements(key))
    for (schema::Context c : {schema::Context::TimeStepping, schema::Context::EventDriven})
      for (const std::string& a : schema::allowed(element, c)) out.insert(a);
  return out;
}

const schema::Attribute& tableRow(const std::string& key, const std::string& attribute) {
  const std::vector<std::string> elements = tableElements(key);
  for (std::size_t k = 0; k + 1 < elements.size(); ++k) try {
      return schema::find(elements[k], attribute);
    } catch (const std::logic_error&) {
    }
  return schema::find(elements.back(), attribute);
}

std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out.empty() ? "none" : out;
}

// The enumeration of an attribute's inline simple type ("" when it has none).
std::string enumeration(const pugi::xml_node& attribute) {
  std::string out;
  for (pugi::xpath_node v : attribute.select_nodes(".//*[local-name()='enumeration']"))
    out += (out.empty() ? "" : "|") + std::string(v.node().attribute("value").value());
  return out;
}

// The XSD type the table's type is written as.
std::string xsdType(schema::Type t) {
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
    case schema::Type::Enum:
      return "(an enumeration)";
    default:
      return "xs:string";
  }
}

nsdyn::io::LoadError loadError(const std::string& xml) {
  try {
    nsdyn::io::XmlLoader().loadString(xml, "model.xml");
  } catch (const nsdyn::io::LoadError& e) {
    return e;
  }
  CPPUNIT_FAIL("expected a LoadError, the model loaded");
  return nsdyn::io::LoadError("", 0, "");
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  CPPUNIT_ASSERT_MESSAGE("fixture lacks " + from, at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

class SchemaTableTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SchemaTableTest);
  CPPUNIT_TEST(everySchemaElementHasTheTablesAttributes);
  CPPUNIT_TEST(everyTableElementIsInTheSchema);
  CPPUNIT_TEST(typesEnumsAndRequiredAgree);
  CPPUNIT_TEST(optionsAreNumericsTable);
  CPPUNIT_TEST(contextsGiveTheMessages);
  CPPUNIT_TEST_SUITE_END();

 public:
  // Per declaration, the XSD's attributes are the table's and the table's are the XSD's.
  void everySchemaElementHasTheTablesAttributes() {
    const Xsd xsd;
    std::size_t compared = 0;
    for (const Declared& d : declarations(xsd)) {
      if (tableElements(d.key).empty()) {
        // an element of no attribute the table need not know (q0, position, ...); one with
        // attributes must be in the table
        std::set<std::string> names;
        for (const auto& a : d.attributes) names.insert(a.first);
        CPPUNIT_ASSERT_MESSAGE(d.where + ": attributes " + join(names) +
                                   " in nsdyn.xsd, element or type '" + d.key +
                                   "' not in the schema table (IO/src/xml/Schema.cpp)",
                               names.empty() || d.alias);
        continue;
      }
      ++compared;
      const std::set<std::string> table = tableAttributes(d.key);
      std::set<std::string> declared;
      for (const auto& a : d.attributes) declared.insert(a.first);
      for (const std::string& a : declared)
        CPPUNIT_ASSERT_MESSAGE(
            d.where + " attribute '" + a +
                "' is in nsdyn.xsd, not in the schema table (table has: " + join(table) + ")",
            table.count(a));
      for (const std::string& a : table)
        CPPUNIT_ASSERT_MESSAGE(
            d.where + " attribute '" + a +
                "' is in the schema table, not in nsdyn.xsd (XSD has: " + join(declared) + ")",
            declared.count(a));
    }
    CPPUNIT_ASSERT(compared > 80);
  }

  // Every element of the table is declared in the XSD (as an element or a named type).
  void everyTableElementIsInTheSchema() {
    const Xsd xsd;
    std::set<std::string> keys;
    for (const Declared& d : declarations(xsd)) keys.insert(d.key);
    for (const schema::Element& e : schema::elements())
      CPPUNIT_ASSERT_MESSAGE(
          std::string("<") + e.name + "> is in the schema table, not in nsdyn.xsd",
          keys.count(e.name) || xsd.types.count(e.name));
    for (const schema::Attribute& a : schema::attributes())
      CPPUNIT_ASSERT_MESSAGE(std::string("row ") + a.element + "/" + a.name +
                                 ": element not in the table's element list",
                             inTable(a.element));
  }

  // numberText for numbers and integers, boolText for booleans, nameText for names, the
  // same values in the same order for an enumeration, use="required" for required rows.
  void typesEnumsAndRequiredAgree() {
    const Xsd xsd;
    std::size_t enums = 0;
    for (const Declared& d : declarations(xsd)) {
      if (tableElements(d.key).empty()) continue;
      const std::set<std::string> table = tableAttributes(d.key);
      for (const auto& [name, node] : d.attributes) {
        if (!table.count(name)) continue;  // everySchemaElementHasTheTablesAttributes fails
        const schema::Attribute& row = tableRow(d.key, name);
        const std::string what = d.where + " attribute '" + name + "': ";
        if (row.type == schema::Type::Enum) {
          ++enums;
          CPPUNIT_ASSERT_EQUAL_MESSAGE(what + "enum values (table | nsdyn.xsd)",
                                       std::string(row.values), enumeration(node));
        } else {
          CPPUNIT_ASSERT_EQUAL_MESSAGE(what + "type (table | nsdyn.xsd)", xsdType(row.type),
                                       std::string(node.attribute("type").value()));
          CPPUNIT_ASSERT_EQUAL_MESSAGE(what + "an enum in the XSD only", std::string(),
                                       enumeration(node));
        }
        // (either form of vectorOrFunction, matrixOrFunction: none required)
        if (tableElements(d.key).size() == 1)
          CPPUNIT_ASSERT_EQUAL_MESSAGE(what + "required (table | nsdyn.xsd)", row.required,
                                       std::string(node.attribute("use").value()) == "required");
        if (row.required)
          CPPUNIT_ASSERT_EQUAL_MESSAGE(what + "a default for a required attribute", std::string(),
                                       std::string(row.fallback));
      }
    }
    CPPUNIT_ASSERT(enums >= 15);
  }

  // <options> and its group elements: the attributes of Numerics' option table
  // ("nsgs.local_tolerance" is <nsgs local-tolerance>), warm_start being the problem's.
  void optionsAreNumericsTable() {
    const Xsd xsd;
    const pugi::xml_node options =
        xsd.doc.select_node("/*/*[local-name()='element'][@name='options']").node();
    CPPUNIT_ASSERT(options);
    std::map<std::string, AttributeNodes> declared;  // "" for <options>, else the group
    xsd.attributes(options, declared[""]);
    for (pugi::xpath_node x : options.select_nodes(".//*[local-name()='element'][@name]"))
      xsd.attributes(x.node(), declared[x.node().attribute("name").value()]);
    int count = 0;
    const NsdOptionEntry* table = nsd_option_table(&count);
    std::map<std::string, std::set<std::string>> numerics;
    for (int k = 0; k < count; ++k) {
      std::string name = table[k].name;
      if (name == "warm_start") continue;
      for (char& c : name)
        if (c == '_') c = '-';
      const auto dot = name.find('.');
      const std::string group = dot == std::string::npos ? "" : name.substr(0, dot);
      const std::string attribute = dot == std::string::npos ? name : name.substr(dot + 1);
      numerics[group].insert(attribute);
      const std::string where = "<" + (group.empty() ? std::string("options") : group) +
                                "> attribute '" + attribute + "' (option " + table[k].name + "): ";
      auto at = declared[group].find(attribute);
      CPPUNIT_ASSERT_MESSAGE(where + "in Numerics' option table, not in nsdyn.xsd",
                             at != declared[group].end());
      if (table[k].type == NSD_OPTION_CHOICE) {
        std::string choices = table[k].choices;
        for (char& c : choices)
          if (c == ',') c = '|';
        CPPUNIT_ASSERT_EQUAL_MESSAGE(where + "choices (Numerics | nsdyn.xsd)", choices,
                                     enumeration(at->second));
      } else {
        CPPUNIT_ASSERT_EQUAL_MESSAGE(
            where + "type (Numerics | nsdyn.xsd)",
            std::string(table[k].type == NSD_OPTION_BOOL ? "boolText" : "numberText"),
            std::string(at->second.attribute("type").value()));
      }
    }
    for (const auto& [group, attributes] : declared)
      for (const auto& a : attributes)
        CPPUNIT_ASSERT_MESSAGE("<" + (group.empty() ? std::string("options") : group) +
                                   "> attribute '" + a.first +
                                   "' is in nsdyn.xsd, not in Numerics' option table",
                               numerics[group].count(a.first));
  }

  // The messages list the table's attributes of the element in its context.
  void contextsGiveTheMessages() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("model.xml:26: <LCP>: unknown attribute 'role' (expected "
                    "one of: solver, fallback, warm-start, storage, mode)"),
        std::string(loadError(replaced(nsdyn::test::ballModel(), "<LCP solver=\"lemke\"/>",
                                       "<LCP solver=\"lemke\" role=\"impact\"/>"))
                        .what()));
    const std::string eventDriven =
        "  <simulation type=\"EventDriven\" t0=\"0\" T=\"1\" h=\"0.005\">\n"
        "    <CvodeOSI/>\n"
        "    <LCP role=\"impact\" mode=\"budget\"/>\n"
        "  </simulation>\n";
    const std::string ed = loadError(nsdyn::test::ballModel("", "", eventDriven)).what();
    CPPUNIT_ASSERT_MESSAGE(
        ed, ed.find("<LCP>: unknown attribute 'mode' (expected one of: "
                    "solver, fallback, warm-start, storage, role)") != std::string::npos);
    using Names = std::vector<std::string>;
    CPPUNIT_ASSERT(Names({"solver", "fallback", "warm-start", "storage", "mode", "dim",
                          "fallback-time-factor", "fallback-iterations"}) ==
                   schema::allowed("FrictionContact", schema::Context::TimeStepping));
    CPPUNIT_ASSERT(Names({"theta", "systems", "constraints"}) == schema::allowed("MoreauJeanOSI"));
    CPPUNIT_ASSERT(
        Names({"theta", "systems", "activate-threshold", "deactivate-velocity-threshold"}) ==
        schema::allowed("MoreauJeanDirectProjectionOSI"));
    CPPUNIT_ASSERT(Names({"tolerance", "budget"}) == schema::values("MLCP", "mode"));
    CPPUNIT_ASSERT_THROW(schema::allowed("NoSuchElement"), std::logic_error);
    CPPUNIT_ASSERT_THROW(schema::find("LCP", "dim"), std::logic_error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SchemaTableTest);
