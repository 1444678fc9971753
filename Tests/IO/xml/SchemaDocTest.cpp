// The schema IO/schema/nsdyn.xsd and the reference page doc/xml-reference.md
// describe the same elements and attributes; every example twin and every
// model of Tests/IO/models validates against the schema (with xmllint, when
// installed).
#include <cppunit/extensions/HelperMacros.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <pugixml.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

using Names = std::map<std::string, std::set<std::string>>;  // element -> attributes

const std::string kSource = NSDYN_SOURCE_DIR;

std::string local(const char* qualified) {
  std::string s = qualified;
  const auto colon = s.find(':');
  return colon == std::string::npos ? s : s.substr(colon + 1);
}

// Attributes of a complex type, following extension bases; nested element
// declarations are not descended into (their attributes are their own).
void typeAttributes(const pugi::xml_node& node, const std::map<std::string, pugi::xml_node>& types,
                    std::set<std::string>& out) {
  for (pugi::xml_node c : node.children()) {
    const std::string name = local(c.name());
    if (name == "element") continue;
    if (name == "attribute") out.insert(c.attribute("name").value());
    if (name == "extension") {
      auto it = types.find(c.attribute("base").value());
      if (it != types.end()) typeAttributes(it->second, types, out);
    }
    typeAttributes(c, types, out);
  }
}

Names schemaNames() {
  pugi::xml_document doc;
  const std::string path = kSource + "/IO/schema/nsdyn.xsd";
  CPPUNIT_ASSERT_MESSAGE(path, doc.load_file(path.c_str()));
  std::map<std::string, pugi::xml_node> types;
  for (pugi::xml_node t : doc.document_element().children())
    if (local(t.name()) == "complexType") types[t.attribute("name").value()] = t;
  Names names;
  for (pugi::xpath_node x : doc.select_nodes("//*[local-name()='element'][@name]")) {
    pugi::xml_node e = x.node();
    std::set<std::string>& attrs = names[e.attribute("name").value()];
    if (e.attribute("type")) {
      auto it = types.find(e.attribute("type").value());
      if (it != types.end()) typeAttributes(it->second, types, attrs);
    }
    typeAttributes(e, types, attrs);
  }
  return names;
}

// Sections "### `<element>`" and, in each, table rows "| `attribute` |", in
// doc/xml-reference.md and in doc/solver-options.md (generated from the option table:
// the attributes of <options> and its group elements; <newton> has rows in both).
Names documentedNames() {
  Names names;
  for (const char* page : {"/doc/xml-reference.md", "/doc/solver-options.md"}) {
    const std::string path = kSource + page;
    std::ifstream in(path);
    CPPUNIT_ASSERT_MESSAGE(path, in.good());
    std::set<std::string> seen;
    std::string line, current;
    const std::regex heading("^### `<([A-Za-z0-9_]+)>`\\s*$");
    const std::regex row("^\\| `([A-Za-z0-9_-]+)` \\|");
    std::smatch m;
    while (std::getline(in, line)) {
      if (std::regex_match(line, m, heading)) {
        current = m[1];
        CPPUNIT_ASSERT_MESSAGE("element <" + current + "> documented twice in " + path,
                               seen.insert(current).second);
        names[current];
      } else if (line.rfind("## ", 0) == 0) {
        current.clear();
      } else if (!current.empty() && std::regex_search(line, m, row)) {
        names[current].insert(m[1]);
      }
    }
  }
  return names;
}

std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

}  // namespace

class SchemaDocTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SchemaDocTest);
  CPPUNIT_TEST(everySchemaElementIsDocumented);
  CPPUNIT_TEST(everyDocumentedElementIsInTheSchema);
  CPPUNIT_TEST(examplesValidate);
  CPPUNIT_TEST_SUITE_END();

 public:
  void everySchemaElementIsDocumented() {
    const Names schema = schemaNames(), doc = documentedNames();
    CPPUNIT_ASSERT(schema.size() > 50);
    for (const auto& [element, attributes] : schema) {
      auto it = doc.find(element);
      CPPUNIT_ASSERT_MESSAGE("<" + element + "> is in the schema, not in doc/xml-reference.md",
                             it != doc.end());
      for (const auto& a : attributes)
        CPPUNIT_ASSERT_MESSAGE(
            "<" + element + "> attribute '" + a +
                "' is in the schema, not in the page (page has: " + join(it->second) + ")",
            it->second.count(a));
    }
  }
  void everyDocumentedElementIsInTheSchema() {
    const Names schema = schemaNames(), doc = documentedNames();
    for (const auto& [element, attributes] : doc) {
      auto it = schema.find(element);
      CPPUNIT_ASSERT_MESSAGE("<" + element + "> is documented, not in the schema",
                             it != schema.end());
      for (const auto& a : attributes)
        CPPUNIT_ASSERT_MESSAGE(
            "<" + element + "> attribute '" + a +
                "' is documented, not in the schema (schema has: " + join(it->second) + ")",
            it->second.count(a));
    }
  }
  void examplesValidate() {
    if (std::system("command -v xmllint > /dev/null 2>&1") != 0) return;  // xmllint is optional
    const std::string cmd = "xmllint --noout --schema '" + kSource + "/IO/schema/nsdyn.xsd' '" +
                            kSource + "'/Examples/*/*.xml '" + kSource +
                            "'/Tests/IO/models/*.xml > /dev/null 2>&1";
    CPPUNIT_ASSERT_EQUAL_MESSAGE(cmd, 0, std::system(cmd.c_str()));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SchemaDocTest);
