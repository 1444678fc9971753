/// @file Topology.hpp
/// @brief The graph of systems and interactions (Boost Graph) and the index sets.
#ifndef NSDYN_KERNEL_TOPOLOGY_HPP
#define NSDYN_KERNEL_TOPOLOGY_HPP

#include <boost/graph/adjacency_list.hpp>
#include <cstddef>
#include <map>
#include <memory>
#include <vector>

#include "nsdyn/DynamicalSystem.hpp"
#include "nsdyn/Interaction.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/UnitaryRelation.hpp"

namespace nsdyn {

/// A set of unitary relations, in a stable order (by interaction number,
/// then relative position), so that assembled problems are reproducible.
using IndexSet = std::vector<SP::UnitaryRelation>;

/// The structure of a NonSmoothDynamicalSystem.
///
/// Graph (boost::adjacency_list, undirected, list storage so that
/// descriptors stay valid when interactions are removed): one vertex per
/// dynamical system, one edge per interaction between its two systems (a
/// self-loop for an interaction with one system). Two unitary relations are
/// coupled (a Delassus block between them is non-zero) when their
/// interactions share a vertex.
///
/// Index sets: I0 holds every unitary relation (rebuilt whenever an
/// interaction is inserted or removed); I1 (active at velocity level) and
/// I2 (active at acceleration level, reserved for event-driven schemes) are
/// set by the simulation at each step.
class NSDYN_KERNEL_API Topology {
 public:
  using Graph = boost::adjacency_list<boost::listS, boost::listS, boost::undirectedS,
                                      SP::DynamicalSystem, SP::Interaction>;
  using Vertex = Graph::vertex_descriptor;
  using Edge = Graph::edge_descriptor;

  Topology() = default;
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  /// Add a vertex for @p ds (no-op when present).
  void insertDynamicalSystem(const SP::DynamicalSystem& ds);
  /// Add an edge for @p inter between @p ds1 and @p ds2 (a self-loop when
  /// @p ds2 is null); the systems are inserted if needed, the interaction is
  /// linked to them and cut into unitary relations. nsdyn::Error if @p inter
  /// is already in the graph or @p ds1 is null.
  void insertInteraction(const SP::Interaction& inter, const SP::DynamicalSystem& ds1,
                         const SP::DynamicalSystem& ds2 = nullptr);
  /// Remove @p inter (its edge and unitary relations); false if it was not there.
  bool removeInteraction(const SP::Interaction& inter);

  std::size_t numberOfDynamicalSystems() const { return boost::num_vertices(graph_); }
  std::size_t numberOfInteractions() const { return boost::num_edges(graph_); }
  bool hasDynamicalSystem(const DynamicalSystem& ds) const;
  bool hasInteraction(const Interaction& inter) const;

  /// Systems, ordered by number.
  std::vector<SP::DynamicalSystem> dynamicalSystems() const;
  /// Interactions, ordered by number.
  std::vector<SP::Interaction> interactions() const;
  /// Interactions involving @p ds, ordered by number.
  std::vector<SP::Interaction> interactionsOf(const DynamicalSystem& ds) const;
  /// Systems shared by the interactions of @p a and @p b (ordered by number).
  std::vector<SP::DynamicalSystem> commonSystems(const UnitaryRelation& a,
                                                 const UnitaryRelation& b) const;

  /// Index set @p level (0, 1 or 2).
  const IndexSet& indexSet(unsigned level) const;
  /// Replace index set 1 or 2 (simulations only; I0 is managed here).
  void setIndexSet(unsigned level, IndexSet set);
  /// Counter bumped by every insertion or removal (lets simulations see changes).
  unsigned long revision() const { return revision_; }

  /// The graph itself (read only).
  const Graph& graph() const { return graph_; }

 private:
  void rebuildIndexSet0();
  Graph graph_;
  std::map<int, Vertex> vertexOf_;                             // system number -> vertex
  std::map<int, Edge> edgeOf_;                                 // interaction number -> edge
  std::map<int, std::vector<SP::UnitaryRelation>> unitaryOf_;  // interaction number -> URs
  IndexSet indexSets_[3];
  unsigned long revision_ = 0;
};

namespace SP {
using Topology = std::shared_ptr<nsdyn::Topology>;
}

}  // namespace nsdyn

#endif
