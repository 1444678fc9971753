/// @file SchemaRows.hpp
/// @brief The schema table's rows, one file per model family (internal to Schema*.cpp):
///        SchemaModel.cpp (root, element data, systems, interactions), SchemaScenes.cpp,
///        SchemaSimulation.cpp (simulation, outputs, wordings); Schema.cpp joins them in this
///        order. The short names below are the rows' notation.
#ifndef NSDYN_IO_XML_SCHEMA_ROWS_HPP
#define NSDYN_IO_XML_SCHEMA_ROWS_HPP

#include <vector>

#include "Schema.hpp"

#pragma GCC visibility push(hidden)

namespace nsdyn::io::xml::schema::rows {

constexpr Type N = Type::Number, I = Type::Integer, B = Type::Bool, E = Type::Enum, Nm = Type::Name,
               F = Type::FileName, V = Type::Vector, Ns = Type::Names, X = Type::Expression,
               T = Type::Text;
constexpr Context Any = Context::Any, TS = Context::TimeStepping, ED = Context::EventDriven;
constexpr bool Req = true, Opt = false;
/// "Kernel's" as a default: the value of the Kernel object the element builds (its C++
/// default), which the row's text states.
constexpr const char* K = "Kernel's";

std::vector<Attribute> modelRows();
std::vector<Attribute> sceneRows();
std::vector<Attribute> peridynamicRows();  // SchemaPeridynamics.cpp
std::vector<Attribute> simulationRows();
std::vector<Wording> wordings();

}  // namespace nsdyn::io::xml::schema::rows

#pragma GCC visibility pop

#endif
