// nsdyn.peridynamics: peridynamic bodies (issue 28, doc/peridynamics.md). A thin layer over the
// Kernel: material models (keywords E, nu, critical_stretch), bodies from arrays or from the
// generators (box, cylinder, sphere, mesh, mesh_file, sheet; the body options as keywords), and
// the body's arrays as NumPy views of its own storage (no copy; a view keeps its body alive).
// The steps, the simulation, the scene coupling and the writers are in peridynamics_run.cpp.
#include <nsdyn/BondBasedMaterial.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HyperelasticMaterial.hpp>
#include <nsdyn/LinearPeridynamicSolid.hpp>
#include <nsdyn/NeoHookeanMaterial.hpp>
#include <nsdyn/PeridynamicGenerators.hpp>
#include <nsdyn/PeridynamicMaterial.hpp>
#include <nsdyn/SheetMaterial.hpp>
#include <nsdyn/StVenantKirchhoffMaterial.hpp>

#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "peridynamics.hpp"

namespace nsdpy {

using namespace nsdyn;

std::shared_ptr<PeridynamicBody> peridynamicBody(py::handle obj, const std::string& arg) {
  if (!obj || !py::isinstance<PeridynamicBody>(obj))
    throw py::type_error(arg + ": expected an nsdyn.peridynamics.Body, found " +
                         std::string(py::str(py::type::handle_of(obj).attr("__name__"))) + " " +
                         shortRepr(obj));
  return obj.cast<std::shared_ptr<PeridynamicBody>>();
}

bool toFlag(py::handle obj, const std::string& arg) {
  if (!obj || !py::isinstance<py::bool_>(obj))
    throw py::type_error(arg + ": expected True or False, found " +
                         std::string(py::str(py::type::handle_of(obj).attr("__name__"))) + " " +
                         shortRepr(obj));
  return obj.cast<bool>();
}

namespace {

std::string text(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

std::shared_ptr<const PeridynamicMaterial> materialOf(py::handle obj, const std::string& arg) {
  if (!obj || !py::isinstance<PeridynamicMaterial>(obj))
    throw py::type_error(arg +
                         ": expected a material of nsdyn.peridynamics (BondBasedMaterial, "
                         "LinearPeridynamicSolid, NeoHookeanMaterial, StVenantKirchhoffMaterial, "
                         "SheetMaterial), found " +
                         std::string(py::str(py::type::handle_of(obj).attr("__name__"))) + " " +
                         shortRepr(obj));
  return obj.cast<std::shared_ptr<PeridynamicMaterial>>();
}

/// The elastic constants of a material's keywords (the model checks them against the body).
PeridynamicElasticity elasticity(const std::string& who, py::handle E, py::handle nu, py::handle s0,
                                 const std::string& calibration = "lattice-axes") {
  PeridynamicElasticity e;
  if (calibration == "isotropic")
    e.calibration = PeridynamicCalibration::Isotropic;
  else if (calibration != "lattice-axes")
    throw py::value_error(who + ": calibration: expected 'lattice-axes' or 'isotropic', found '" +
                          calibration + "'");
  e.youngModulus = toReal(E, who + ": E");
  e.poissonRatio = toReal(nu, who + ": nu");
  if (!s0.is_none()) e.criticalStretch = toReal(s0, who + ": critical_stretch");
  return e;
}

/// The body options of the keywords; horizon None: 3 × spacing. The body's constructor checks
/// the values (nsdyn.Error naming the body and the value).
PeridynamicBodyOptions bodyOptions(const std::string& who, const py::kwargs& kw) {
  static const char* known =
      "spacing, horizon, density, thickness, surface_correction, contact_radius, threads, name";
  PeridynamicBodyOptions o;
  bool spacing = false, density = false;
  py::handle horizon = py::none();
  for (auto item : kw) {
    const std::string k = py::str(item.first);
    const std::string arg = who + ": " + k;
    if (k == "spacing") {
      o.spacing = toReal(item.second, arg);
      spacing = true;
    } else if (k == "horizon") {
      horizon = item.second;
    } else if (k == "density") {
      o.density = toReal(item.second, arg);
      density = true;
    } else if (k == "thickness") {
      o.thickness = toReal(item.second, arg);
    } else if (k == "surface_correction") {
      o.surfaceCorrection = toFlag(item.second, arg);
    } else if (k == "contact_radius") {
      o.contactRadius = toReal(item.second, arg);
    } else if (k == "threads") {
      o.threads = static_cast<int>(toInteger(item.second, arg, 0, INT_MAX));
    } else if (k == "name") {
      o.name = toText(item.second, arg);
    } else {
      throw py::type_error(who + ": unexpected keyword argument '" + k + "' (keywords: " + known +
                           ")");
    }
  }
  if (!spacing) throw py::type_error(who + ": missing keyword argument 'spacing' (m, > 0)");
  if (!density) throw py::type_error(who + ": missing keyword argument 'density' (kg/m³, > 0)");
  o.horizon = horizon.is_none() ? 3.0 * o.spacing : toReal(horizon, who + ": horizon");
  return o;
}

/// A NumPy array over @p data (owned by the body @p owner, whose arrays keep their size):
/// no copy; the array keeps @p owner alive. Read-only unless @p writable.
/// @p T: the NumPy element type (bool for the uint8 flags, which hold 0 or 1).
template <class T>
py::array view(py::handle owner, const void* data, std::vector<py::ssize_t> shape, bool writable) {
  const py::dtype dtype = py::dtype::of<T>();
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t stride = dtype.itemsize();
  for (std::size_t k = shape.size(); k-- > 0;) {
    strides[k] = stride;
    stride *= shape[k];
  }
  py::array a(dtype, shape, strides, data, owner);
  if (!writable) a.attr("setflags")(py::arg("write") = false);
  return a;
}

py::ssize_t points(const PeridynamicBody& b) {
  return static_cast<py::ssize_t>(b.size());
}

/// Copy @p obj (shape (n, 3), finite reals) into @p dst (3n values of the body).
void setRows(const PeridynamicBody& b, std::vector<double>& dst, py::handle obj,
             const std::string& arg) {
  Array a = readArray(obj, arg);
  if (a.shape.size() != 2 || a.shape[0] != points(b) || a.shape[1] != 3) {
    std::string found = "(";
    for (std::size_t i = 0; i < a.shape.size(); ++i)
      found += (i ? ", " : "") + std::to_string(a.shape[i]);
    found += a.shape.size() == 1 ? ",)" : ")";
    throw py::value_error(arg + ": expected shape (" + std::to_string(b.size()) +
                          ", 3) (one row per point of '" + b.name() + "'), found shape " + found);
  }
  std::copy(a.values.begin(), a.values.end(), dst.begin());
}

/// Positions (3n) from an optional (n, 3) argument: the body's x when None.
std::vector<double> positionsArg(const PeridynamicBody& b, py::handle obj, const std::string& arg) {
  std::vector<double> x = b.x;
  if (!obj.is_none()) setRows(b, x, obj, arg);
  return x;
}

std::string repr(const PeridynamicBody& b) {
  return "<nsdyn.peridynamics.Body '" + b.name() + "': " + std::to_string(b.size()) + " points, " +
         std::to_string(b.bondCount()) + " bonds (" + std::to_string(b.brokenBonds()) +
         " broken), " + b.material().kind() + ">";
}

using Generated = std::unique_ptr<PeridynamicBody>;

std::shared_ptr<PeridynamicBody> shared(Generated b) {
  return std::shared_ptr<PeridynamicBody>(std::move(b));
}

void initMaterials(py::module_& pd) {
  py::class_<PeridynamicMaterial, std::shared_ptr<PeridynamicMaterial>>(
      pd, "Material",
      "a peridynamic material model (nsdyn::PeridynamicMaterial): energy, forces, stress, "
      "fracture by critical stretch")
      .def_property_readonly("kind", &PeridynamicMaterial::kind,
                             "'bond-based', 'lps', 'neo-hookean', 'saint-venant-kirchhoff', "
                             "'sheet'")
      .def_property_readonly(
          "E", [](const PeridynamicMaterial& m) { return m.elasticity().youngModulus; })
      .def_property_readonly(
          "nu", [](const PeridynamicMaterial& m) { return m.elasticity().poissonRatio; })
      .def_property_readonly("critical_stretch", &PeridynamicMaterial::criticalStretch,
                             "+inf: no fracture")
      .def(
          "wave_speed",
          [](const PeridynamicMaterial& m, py::handle density) {
            return m.waveSpeed(toReal(density, "Material.wave_speed: density"));
          },
          py::arg("density"), "the longitudinal wave speed of the continuum (m/s)")
      .def("__repr__", [](py::object self) {
        const auto& m = self.cast<const PeridynamicMaterial&>();
        return "<nsdyn.peridynamics." + std::string(py::str(self.get_type().attr("__name__"))) +
               " " + m.kind() + ": E=" + text(m.elasticity().youngModulus) +
               ", nu=" + text(m.elasticity().poissonRatio) +
               ", critical_stretch=" + text(m.criticalStretch()) + ">";
      });

  const auto fromEnergy = [](double G0, double horizon, double E, int dimension) {
    return BondBasedMaterial::criticalStretchFromEnergy(G0, horizon, E, dimension);
  };
  py::class_<BondBasedMaterial, PeridynamicMaterial, std::shared_ptr<BondBasedMaterial>>(
      pd, "BondBasedMaterial",
      "prototype microelastic brittle (PMB) bond-based material: nu = 1/4 (3D) or 1/3 (2D body)")
      .def(py::init([](py::handle E, py::handle nu, py::handle s0, const std::string& cal) {
             return std::make_shared<BondBasedMaterial>(
                 elasticity("BondBasedMaterial", E, nu, s0, cal));
           }),
           py::kw_only(), py::arg("E"), py::arg("nu") = 0.25,
           py::arg("critical_stretch") = py::none(), py::arg("calibration") = "lattice-axes")
      .def(
          "micromodulus",
          [](const BondBasedMaterial& m, py::handle body) {
            return m.micromodulus(*peridynamicBody(body, "BondBasedMaterial.micromodulus: body"));
          },
          py::arg("body"))
      .def_static("criticalStretchFromEnergy", fromEnergy, py::arg("G0"), py::arg("horizon"),
                  py::arg("E"), py::arg("dimension") = 3,
                  "critical stretch from the fracture energy G0 (J/m²): sqrt(5 G0 / (9 K delta)) "
                  "(3D), sqrt(4 pi G0 / (9 E delta)) (2D)")
      .def_static("critical_stretch_from_energy", fromEnergy, py::arg("G0"), py::arg("horizon"),
                  py::arg("E"), py::arg("dimension") = 3);
  pd.def("critical_stretch_from_energy", fromEnergy, py::arg("G0"), py::arg("horizon"),
         py::arg("E"), py::arg("dimension") = 3, "BondBasedMaterial.criticalStretchFromEnergy");

  py::class_<LinearPeridynamicSolid, PeridynamicMaterial, std::shared_ptr<LinearPeridynamicSolid>>(
      pd, "LinearPeridynamicSolid", "ordinary state-based linear peridynamic solid (any nu)")
      .def(py::init([](py::handle E, py::handle nu, py::handle s0, const std::string& cal) {
             return std::make_shared<LinearPeridynamicSolid>(
                 elasticity("LinearPeridynamicSolid", E, nu, s0, cal));
           }),
           py::kw_only(), py::arg("E"), py::arg("nu") = 0.25,
           py::arg("critical_stretch") = py::none(), py::arg("calibration") = "lattice-axes");

  py::class_<HyperelasticMaterial, PeridynamicMaterial, std::shared_ptr<HyperelasticMaterial>>(
      pd, "HyperelasticMaterial",
      "correspondence hyperelastic material through the principal stretches (base class)")
      .def_property_readonly("shear_modulus", &HyperelasticMaterial::shearModulus)
      .def_property_readonly("lame_lambda", &HyperelasticMaterial::lameLambda)
      .def_property_readonly("stabilisation", &HyperelasticMaterial::stabilisation)
      .def(
          "deformation_gradients",
          [](const HyperelasticMaterial& m, py::handle body, py::handle x) {
            auto b = peridynamicBody(body, "deformation_gradients: body");
            const std::vector<double> pos = positionsArg(*b, x, "deformation_gradients: x");
            std::vector<double> F(9 * b->size());
            m.deformationGradients(*b, pos.data(), F.data());
            return toNumpy(F.data(), {points(*b), 3, 3});
          },
          py::arg("body"), py::arg("x") = py::none(),
          "(n, 3, 3) deformation gradient of each point at x (default: the body's positions)");
  const auto hyper = [](const char* who, auto make) {
    return [who, make](py::handle E, py::handle nu, py::handle s0, py::handle stab) {
      return make(elasticity(who, E, nu, s0), toReal(stab, std::string(who) + ": stabilisation"));
    };
  };
  py::class_<NeoHookeanMaterial, HyperelasticMaterial, std::shared_ptr<NeoHookeanMaterial>>(
      pd, "NeoHookeanMaterial", "compressible Neo-Hookean (correspondence)")
      .def(py::init(hyper("NeoHookeanMaterial",
                          [](const PeridynamicElasticity& e, double s) {
                            return std::make_shared<NeoHookeanMaterial>(e, s);
                          })),
           py::kw_only(), py::arg("E"), py::arg("nu") = 0.25,
           py::arg("critical_stretch") = py::none(), py::arg("stabilisation") = 1.0);
  py::class_<StVenantKirchhoffMaterial, HyperelasticMaterial,
             std::shared_ptr<StVenantKirchhoffMaterial>>(pd, "StVenantKirchhoffMaterial",
                                                         "St. Venant-Kirchhoff (correspondence)")
      .def(py::init(hyper("StVenantKirchhoffMaterial",
                          [](const PeridynamicElasticity& e, double s) {
                            return std::make_shared<StVenantKirchhoffMaterial>(e, s);
                          })),
           py::kw_only(), py::arg("E"), py::arg("nu") = 0.25,
           py::arg("critical_stretch") = py::none(), py::arg("stabilisation") = 1.0);

  const auto sheetFigure = [](double (SheetMaterial::*f)(const PeridynamicBody&, const double*)
                                  const) {
    return [f](const SheetMaterial& m, py::handle body, py::handle x) {
      auto b = peridynamicBody(body, "SheetMaterial: body");
      const std::vector<double> pos = positionsArg(*b, x, "SheetMaterial: x");
      return (m.*f)(*b, pos.data());
    };
  };
  py::class_<SheetMaterial, PeridynamicMaterial, std::shared_ptr<SheetMaterial>>(
      pd, "SheetMaterial",
      "cloth: a 2D body (thickness > 0), bond-based membrane (nu = 1/3) and bending bonds")
      .def(py::init([](py::handle E, py::handle nu, py::handle s0, py::handle bending) {
             SheetMaterialOptions o;
             o.bendingScale = toReal(bending, "SheetMaterial: bending_scale");
             return std::make_shared<SheetMaterial>(elasticity("SheetMaterial", E, nu, s0), o);
           }),
           py::kw_only(), py::arg("E"), py::arg("nu") = 1.0 / 3.0,
           py::arg("critical_stretch") = py::none(), py::arg("bending_scale") = 1.0)
      .def_property_readonly("bending_scale",
                             [](const SheetMaterial& m) { return m.options().bendingScale; })
      .def("membrane_energy", sheetFigure(&SheetMaterial::membraneEnergy), py::arg("body"),
           py::arg("x") = py::none())
      .def("bending_energy", sheetFigure(&SheetMaterial::bendingEnergy), py::arg("body"),
           py::arg("x") = py::none())
      .def(
          "bending_stiffness",
          [](const SheetMaterial& m, py::handle body) {
            return m.bendingStiffness(*peridynamicBody(body, "bending_stiffness: body"));
          },
          py::arg("body"))
      .def(
          "membrane_stiffness",
          [](const SheetMaterial& m, py::handle body) {
            return m.membraneStiffness(*peridynamicBody(body, "membrane_stiffness: body"));
          },
          py::arg("body"));
}

void initBody(py::class_<PeridynamicBody, std::shared_ptr<PeridynamicBody>>& c) {
  using B = PeridynamicBody;
  c.def(py::init(
            [](py::handle reference, py::handle volume, py::handle material, const py::kwargs& kw) {
              const std::string who = "nsdyn.peridynamics.Body";
              Array X = readArray(reference, who + ": reference");
              if (X.shape.size() != 2 || X.shape[1] != 3)
                throw py::value_error(who + ": reference: expected shape (n, 3), found " +
                                      std::to_string(X.shape.size()) + " dimension(s)");
              std::vector<double> V = toVector(volume, who + ": volume", X.shape[0]);
              return std::make_shared<B>(std::move(X.values), std::move(V), bodyOptions(who, kw),
                                         materialOf(material, who + ": material"));
            }),
        py::arg("reference"), py::arg("volume"), py::arg("material"),
        "points at reference (n, 3) with volumes (n,); keywords spacing, density (required), "
        "horizon (3 spacing), thickness (0: 3D), surface_correction (True), contact_radius (0: "
        "spacing / 2), threads, name");
  c.def("__repr__", &repr)
      .def("__len__", &B::size)
      .def_property_readonly("name", &B::name)
      .def_property_readonly("size", &B::size, "points")
      .def_property_readonly("bond_count", &B::bondCount, "directed bonds (2 per pair)")
      .def_property_readonly("broken_bonds", &B::brokenBonds, "directed")
      .def_property_readonly_static("memory_per_bond",
                                    [](py::handle) { return B::memoryPerBond(); })
      .def_property_readonly("spacing", [](const B& b) { return b.options().spacing; })
      .def_property_readonly("horizon", [](const B& b) { return b.options().horizon; })
      .def_property_readonly("density", [](const B& b) { return b.options().density; })
      .def_property_readonly("thickness", [](const B& b) { return b.options().thickness; })
      .def_property_readonly("surface_correction",
                             [](const B& b) { return b.options().surfaceCorrection; })
      .def_property_readonly("contact_radius", &B::contactRadius)
      .def_property_readonly(
          "material",
          [](const B& b) { return std::const_pointer_cast<PeridynamicMaterial>(b.materialPtr()); })
      // point arrays: views of the body's storage
      .def_property_readonly(
          "X",
          [](py::object self) {
            const B& b = self.cast<const B&>();
            return view<double>(self, b.X.data(), {points(b), 3}, false);
          },
          "(n, 3) reference positions (read-only view)")
      .def_property(
          "x",
          [](py::object self) {
            B& b = self.cast<B&>();
            return view<double>(self, b.x.data(), {points(b), 3}, true);
          },
          [](B& b, py::handle a) { setRows(b, b.x, a, "Body.x"); },
          "(n, 3) current positions (a writable view; assigning copies into it)")
      .def_property(
          "v",
          [](py::object self) {
            B& b = self.cast<B&>();
            return view<double>(self, b.v.data(), {points(b), 3}, true);
          },
          [](B& b, py::handle a) { setRows(b, b.v, a, "Body.v"); }, "(n, 3) velocities (view)")
      .def_property(
          "force",
          [](py::object self) {
            B& b = self.cast<B&>();
            return view<double>(self, b.force.data(), {points(b), 3}, true);
          },
          [](B& b, py::handle a) { setRows(b, b.force, a, "Body.force"); },
          "(n, 3) applied forces (N), added to gravity (view)")
      .def_property_readonly(
          "volume",
          [](py::object self) {
            const B& b = self.cast<const B&>();
            return view<double>(self, b.volume.data(), {points(b)}, false);
          },
          "(n,) m³ (read-only view)")
      .def_property_readonly(
          "mass",
          [](py::object self) {
            const B& b = self.cast<const B&>();
            return view<double>(self, b.mass.data(), {points(b)}, false);
          },
          "(n,) kg (read-only view)")
      .def_property_readonly(
          "damage",
          [](py::object self) {
            const B& b = self.cast<const B&>();
            return view<double>(self, b.damage.data(), {points(b)}, false);
          },
          "(n,) broken share of each point's bonds (read-only view)")
      .def_property_readonly(
          "prescribed",
          [](py::object self) {
            B& b = self.cast<B&>();
            return view<bool>(self, b.prescribed.data(), {points(b)}, true);
          },
          "(n,) bool: points that move with their own velocity (writable view)")
      // bonds: read-only views (CSR by point)
      .def_property_readonly(
          "bond_start",
          [](py::object self) {
            const B& b = self.cast<const B&>();
            return view<std::uint32_t>(self, b.bondStart.data(),
                                       {static_cast<py::ssize_t>(b.bondStart.size())}, false);
          },
          "(n + 1,) uint32: bonds of point i are bond_start[i]:bond_start[i + 1]")
      .def_property_readonly(
          "neighbour",
          [](py::object self) {
            const B& b = self.cast<const B&>();
            return view<std::uint32_t>(self, b.neighbour.data(),
                                       {static_cast<py::ssize_t>(b.bondCount())}, false);
          },
          "(bonds,) uint32: the other point of each directed bond")
      .def_property_readonly(
          "bond_length",
          [](py::object self) {
            const B& b = self.cast<const B&>();
            return view<float>(self, b.bondLength.data(), {static_cast<py::ssize_t>(b.bondCount())},
                               false);
          },
          "(bonds,) float32: reference length |xi| (m)")
      .def_property_readonly(
          "bond_factor",
          [](py::object self) {
            const B& b = self.cast<const B&>();
            return view<float>(self, b.bondFactor.data(), {static_cast<py::ssize_t>(b.bondCount())},
                               false);
          },
          "(bonds,) float32: surface-correction factor")
      .def_property_readonly(
          "bond_broken",
          [](py::object self) {
            const B& b = self.cast<const B&>();
            return view<bool>(self, b.bondBroken.data(), {static_cast<py::ssize_t>(b.bondCount())},
                              false);
          },
          "(bonds,) bool")
      .def(
          "bond_pairs",
          [](const B& b) {
            py::array_t<std::uint32_t> out(
                {static_cast<py::ssize_t>(b.bondCount()), static_cast<py::ssize_t>(2)});
            auto o = out.mutable_unchecked<2>();
            for (std::size_t i = 0; i < b.size(); ++i)
              for (std::uint32_t k = b.bondStart[i]; k < b.bondStart[i + 1]; ++k) {
                o(k, 0) = static_cast<std::uint32_t>(i);
                o(k, 1) = b.neighbour[k];
              }
            return out;
          },
          "(bonds, 2) uint32 (i, j) of each directed bond (a copy)")
      // operations
      .def(
          "precrack",
          [](B& b, py::handle a, py::handle e, py::handle d) {
            return b.precrack(toVec3(a, "precrack: a"), toVec3(e, "precrack: b"),
                              toVec3(d, "precrack: direction"));
          },
          py::arg("a"), py::arg("b"), py::arg("direction") = py::make_tuple(0.0, 0.0, 1.0),
          "remove the bonds crossing the segment [a, b] swept along direction; returns the "
          "directed bonds removed (nsdyn.Error when none crosses it)")
      .def(
          "prescribe",
          [](B& b, py::handle lower, py::handle upper, py::handle on) {
            const std::array<double, 3> lo = toVec3(lower, "prescribe: lower"),
                                        hi = toVec3(upper, "prescribe: upper");
            return b.prescribe(
                [&](const double* X) {
                  return X[0] >= lo[0] && X[0] <= hi[0] && X[1] >= lo[1] && X[1] <= hi[1] &&
                         X[2] >= lo[2] && X[2] <= hi[2];
                },
                toFlag(on, "prescribe: on"));
          },
          py::arg("lower"), py::arg("upper"), py::arg("on") = true,
          "prescribe (or free, on=False) the points whose reference position lies in the box "
          "[lower, upper] (bounds included); returns their count")
      .def("break_bonds", &B::breakBonds, "break the bonds past the critical stretch; returns them")
      .def("refresh", &B::refresh, "recompute damage, surface correction, material data")
      .def("total_mass", &B::totalMass)
      .def("centre_of_mass", [](const B& b) { return toNumpy(b.centreOfMass().data(), {3}); })
      .def("momentum", [](const B& b) { return toNumpy(b.momentum().data(), {3}); })
      .def("kinetic_energy", &B::kineticEnergy)
      .def("elastic_energy", &B::elasticEnergy)
      .def(
          "translate", [](B& b, py::handle d) { b.translate(toVec3(d, "translate: d")); },
          py::arg("d"))
      .def(
          "set_velocity",
          [](B& b, py::handle v) { b.setVelocity(toVec3(v, "set_velocity: velocity")); },
          py::arg("velocity"))
      .def(
          "forces",
          [](const B& b, py::handle x) {
            const std::vector<double> pos = positionsArg(b, x, "Body.forces: x");
            std::vector<double> f(pos.size());
            b.material().forces(b, pos.data(), f.data());
            return toNumpy(f.data(), {points(b), 3});
          },
          py::arg("x") = py::none(),
          "(n, 3) internal forces -dW/dx at x (default: the current positions); 0 on prescribed "
          "points")
      .def(
          "energy",
          [](const B& b, py::handle x) {
            const std::vector<double> pos = positionsArg(b, x, "Body.energy: x");
            return b.material().energy(b, pos.data());
          },
          py::arg("x") = py::none(), "elastic energy W(x) (J)")
      .def(
          "stress",
          [](const B& b) {
            std::vector<double> s(6 * b.size());
            b.material().stress(b, b.x.data(), s.data());
            return toNumpy(s.data(), {points(b), 6});
          },
          "(n, 6) Cauchy stress at the current positions: xx yy zz yz xz xy (Pa)")
      .def(
          "point_energies",
          [](const B& b) {
            std::vector<double> w(b.size());
            b.material().pointEnergies(b, b.x.data(), w.data());
            return toNumpy(w);
          },
          "(n,) each point's share of W (J)");
}

void initGenerators(py::module_& pd) {
  pd.def(
      "box",
      [](py::handle centre, py::handle half, py::handle material, const py::kwargs& kw) {
        const std::string who = "nsdyn.peridynamics.box";
        return shared(peridynamics::box(toVec3(centre, who + ": centre"),
                                        toVec3(half, who + ": half_extents"), bodyOptions(who, kw),
                                        materialOf(material, who + ": material")));
      },
      py::arg("centre"), py::arg("half_extents"), py::arg("material"),
      "points on a lattice of spacing dx filling the box (extents multiples of dx); keywords "
      "spacing, density, horizon (3 spacing), thickness, surface_correction, contact_radius, "
      "threads, name");
  pd.def(
      "cylinder",
      [](py::handle centre, py::handle radius, py::handle length, py::handle material,
         py::handle axis, const py::kwargs& kw) {
        const std::string who = "nsdyn.peridynamics.cylinder";
        return shared(peridynamics::cylinder(
            toVec3(centre, who + ": centre"), toReal(radius, who + ": radius"),
            toReal(length, who + ": length"),
            static_cast<int>(toInteger(axis, who + ": axis", 0, 2)), bodyOptions(who, kw),
            materialOf(material, who + ": material")));
      },
      py::arg("centre"), py::arg("radius"), py::arg("length"), py::arg("material"),
      py::arg("axis") = 2, "a cylinder along axis 0, 1 or 2; keywords as box");
  pd.def(
      "sphere",
      [](py::handle centre, py::handle radius, py::handle material, const py::kwargs& kw) {
        const std::string who = "nsdyn.peridynamics.sphere";
        return shared(peridynamics::sphere(toVec3(centre, who + ": centre"),
                                           toReal(radius, who + ": radius"), bodyOptions(who, kw),
                                           materialOf(material, who + ": material")));
      },
      py::arg("centre"), py::arg("radius"), py::arg("material"), "a ball; keywords as box");
  pd.def(
      "mesh",
      [](py::handle vertices, py::handle triangles, py::handle material, const py::kwargs& kw) {
        const std::string who = "nsdyn.peridynamics.mesh";
        Array v = readArray(vertices, who + ": vertices");
        if (v.shape.size() != 2 || v.shape[1] != 3)
          throw py::value_error(who + ": vertices: expected shape (n, 3)");
        Array t = readArray(triangles, who + ": triangles");
        if (t.shape.size() != 2 || t.shape[1] != 3)
          throw py::value_error(who + ": triangles: expected shape (m, 3)");
        std::vector<int> tri(t.values.size());
        for (std::size_t k = 0; k < tri.size(); ++k) {
          const double q = t.values[k];
          if (q != std::floor(q) || q < 0 || q > INT_MAX)
            throw py::value_error(who + ": triangles: expected vertex indices >= 0, found " +
                                  text(q) + " at flat index " + std::to_string(k));
          tri[k] = static_cast<int>(q);
        }
        return shared(peridynamics::mesh(v.values, tri, bodyOptions(who, kw),
                                         materialOf(material, who + ": material")));
      },
      py::arg("vertices"), py::arg("triangles"), py::arg("material"),
      "the lattice points inside a closed triangle mesh (vertices (n, 3), triangles (m, 3)); "
      "keywords as box");
  pd.def(
      "mesh_file",
      [](py::handle path, py::handle material, py::handle scale, const py::kwargs& kw) {
        const std::string who = "nsdyn.peridynamics.mesh_file";
        return shared(peridynamics::meshFile(toPath(path, who + ": path"),
                                             toReal(scale, who + ": scale"), bodyOptions(who, kw),
                                             materialOf(material, who + ": material")));
      },
      py::arg("path"), py::arg("material"), py::arg("scale") = 1.0,
      "a mesh file (OBJ, STL, PLY, ...) filled with lattice points; keywords as box");
  pd.def(
      "sheet",
      [](py::handle centre, py::handle u, py::handle w, py::handle halfU, py::handle halfW,
         py::handle material, const py::kwargs& kw) {
        const std::string who = "nsdyn.peridynamics.sheet";
        return shared(peridynamics::sheet(toVec3(centre, who + ": centre"), toVec3(u, who + ": u"),
                                          toVec3(w, who + ": w"), toReal(halfU, who + ": half_u"),
                                          toReal(halfW, who + ": half_w"), bodyOptions(who, kw),
                                          materialOf(material, who + ": material")));
      },
      py::arg("centre"), py::arg("u"), py::arg("w"), py::arg("half_u"), py::arg("half_w"),
      py::arg("material"),
      "a rectangular sheet (one layer) in the plane spanned by the unit vectors u, w; keyword "
      "thickness > 0 required, others as box");
}

}  // namespace

void initPeridynamics(py::module_& m) {
  py::module_ pd = m.def_submodule(
      "peridynamics",
      "peridynamic bodies (doc/peridynamics.md): materials, generators, bodies with NumPy views "
      "of their arrays, steps, PeridynamicSimulation, the scene coupling, VTK and HDF5 writers");
  // `import nsdyn.peridynamics` and `from nsdyn.peridynamics import box` find it
  py::module_::import("sys").attr("modules")["nsdyn.peridynamics"] = pd;
  initMaterials(pd);
  py::class_<PeridynamicBody, std::shared_ptr<PeridynamicBody>> body(
      pd, "Body",
      "a peridynamic body (nsdyn::PeridynamicBody): points with volume and mass, bonds within "
      "the horizon; its arrays are NumPy views of the body's storage");
  initBody(body);
  initGenerators(pd);
  initPeridynamicsRun(m, pd);
}

}  // namespace nsdpy
