// race_siconos_nocheck: an LD_PRELOAD for Debian's Siconos 4.4 (libsiconos_kernel.so.7), for
// the race's "checks stubbed" Siconos rows. Debian builds Siconos without NDEBUG, so the
// topology graphs (SiconosGraph<...>, kernel/src/utils/SiconosTools/SiconosGraph.hpp) run
// assert(state_assert()) and assert(adjacent_vertices_ok()) in remove_vertex and
// remove_out_edge_if: each walks every vertex (and its adjacency) of the graph, and the contact
// manager removes and adds interactions each step, so a step costs O(contacts^2). The library calls
// the two instantiations through its PLT (weak symbols, default visibility: `nm -D
// libsiconos_kernel.so.7 | grep -e state_assert -e adjacent_vertices_ok`; `objdump -d` shows the
// calls through `@plt`), so a definition loaded first replaces them. These return "consistent" at
// once; nothing else of Siconos changes. Symbols: SiconosGraph<SP::DynamicalSystem,
// SP::Interaction, ...> (the DS graph) and SiconosGraph<SP::Interaction, SP::DynamicalSystem, ...>
// (the interaction graph).
extern "C" {
// bool SiconosGraph<shared_ptr<DynamicalSystem>, shared_ptr<Interaction>, ...>::state_assert()
// const
__attribute__((visibility("default"))) bool
_ZNK12SiconosGraphISt10shared_ptrI15DynamicalSystemES0_I11InteractionE25DynamicalSystemProperties21InteractionProperties15GraphPropertiesE12state_assertEv(
    const void*) {
  return true;
}
// bool SiconosGraph<shared_ptr<Interaction>, shared_ptr<DynamicalSystem>, ...>::state_assert()
// const
__attribute__((visibility("default"))) bool
_ZNK12SiconosGraphISt10shared_ptrI11InteractionES0_I15DynamicalSystemE21InteractionProperties25DynamicalSystemProperties15GraphPropertiesE12state_assertEv(
    const void*) {
  return true;
}
// bool SiconosGraph<shared_ptr<DynamicalSystem>, ...>::adjacent_vertices_ok() const
__attribute__((visibility("default"))) bool
_ZNK12SiconosGraphISt10shared_ptrI15DynamicalSystemES0_I11InteractionE25DynamicalSystemProperties21InteractionProperties15GraphPropertiesE20adjacent_vertices_okEv(
    const void*) {
  return true;
}
// bool SiconosGraph<shared_ptr<Interaction>, ...>::adjacent_vertices_ok() const
__attribute__((visibility("default"))) bool
_ZNK12SiconosGraphISt10shared_ptrI11InteractionES0_I15DynamicalSystemE21InteractionProperties25DynamicalSystemProperties15GraphPropertiesE20adjacent_vertices_okEv(
    const void*) {
  return true;
}
}
