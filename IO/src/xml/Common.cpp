// Text helpers of the XML loader: entries of vectors and matrices, names, numbers in messages.

#include "Common.hpp"

namespace nsdyn::io::xml {

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

std::string shape(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Entries of a vector or matrix text: rows separated by ';', entries by ','
// when the text has a comma outside parentheses, else by blanks; separators
// inside parentheses (function arguments) belong to the entry. Blank rows are
// skipped.
std::vector<std::vector<std::string>> splitEntries(const std::string& text) {
  bool commas = false;
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (c == ',' && depth == 0) commas = true;
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string rowText, entry;
  // the last entry of a row counts when it has characters (blanks too, as
  // getline gives them); a row of blanks only is skipped
  auto endRow = [&] {
    if (commas ? !entry.empty() : !trim(entry).empty()) row.push_back(trim(entry));
    if (!trim(rowText).empty()) rows.push_back(row);
    row.clear();
    rowText.clear();
    entry.clear();
  };
  depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (depth == 0 && c == ';') {
      endRow();
      continue;
    }
    rowText += c;
    const bool blank = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (depth == 0 && commas && c == ',') {
      row.push_back(trim(entry));
      entry.clear();
    } else if (depth == 0 && !commas && blank) {
      if (!entry.empty()) row.push_back(entry);
      entry.clear();
    } else if (commas || !blank || depth > 0) {
      entry += c;
    }
  }
  endRow();
  return rows;
}

std::string stem(const std::string& path) {
  std::string base =
      path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  const auto dot = base.rfind('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

// t in a message: the shortest of 12 significant digits (0.06, not 0.059999999999999998).
std::string timeText(double t, int digits) {
  std::ostringstream s;
  s.precision(digits);
  s << t;
  return s.str();
}

std::string numberText(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

Vec3 vec3(const SiconosVector& v) {
  return {v(0), v(1), v(2)};
}

std::string vec3Text(const Vec3& v) {
  std::ostringstream s;
  s.precision(10);
  s << v[0] << " " << v[1] << " " << v[2];
  return s.str();
}

Shape::Quat toQuat(const SiconosVector& q) {
  return {q(0), q(1), q(2), q(3)};
}

const std::vector<std::string>& shapeElements() {
  static const std::vector<std::string> names = {
      "SphereShape",     "BoxShape",       "CapsuleShape",      "CylinderShape",
      "ConvexHullShape", "HalfSpaceShape", "TriangleMeshShape", "HeightfieldShape"};
  return names;
}

bool isShape(const Node& c) {
  return c.type() == pugi::node_element && std::find(shapeElements().begin(), shapeElements().end(),
                                                     c.name()) != shapeElements().end();
}

}  // namespace nsdyn::io::xml
