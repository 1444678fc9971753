// The loader: the root element, <parameters>, <plugin>, <functions>, <model>, and the
// Kernel's Model::initialize().

#include "Loader.hpp"

#include <dlfcn.h>

namespace nsdyn::io::xml {

Loader::Loader(std::string text, const std::string& file, const FunctionRegistry& registry,
               const LoaderLimits& limits)
    : Reader(std::move(text), file, registry), limits_(limits) {}

std::unique_ptr<LoadedModel> Loader::load() {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer_inplace(
      text_.data(), text_.size(), pugi::parse_default | pugi::parse_ws_pcdata_single);
  if (!parsed)
    throw LoadError(file_, lineOf(parsed.offset),
                    std::string("malformed XML: ") + parsed.description());
  out_ = std::make_unique<LoadedModel>();
  out_->file = file_;
  Node root = doc.document_element();
  if (std::strcmp(root.name(), "nsdyn") != 0)
    fail(root, "expected the root element <nsdyn>, found <" + std::string(root.name()) + ">");
  check(root, {schema::allowed("nsdyn"),
               {"parameters", "plugin", "functions", "model", "simulation", "outputs"}});
  if (root.attribute("version") && std::string(root.attribute("version").value()) != "1")
    fail(root, "expected version=\"1\", found version=\"" +
                   std::string(root.attribute("version").value()) + "\"");
  out_->name = root.attribute("name") ? root.attribute("name").value() : stem(file_);
  if (root.attribute("name")) validName(root, out_->name, true);

  if (Node n = single(root, "parameters", false)) parameters(n);
  unknownOverrides(root);
  for (Node p : root.children("plugin")) plugin(p);
  if (Node n = single(root, "functions", false)) functions(n);
  model(single(root, "model", true));
  simulation(single(root, "simulation", true));
  if (out_->scene) stepSizeCheck(single(root, "simulation", true));
  outputs(single(root, "outputs", false));
  return std::move(out_);
}

void Loader::parameters(const Node& n) {
  check(n, {schema::allowed("parameters"), {"parameter"}});
  for (Node p : n.children("parameter")) {
    check(p, {schema::allowed("parameter"), {}});
    const std::string name = requiredAttribute(p, "name", "parameter name");
    validName(p, name);
    if (parameters_.count(name))
      fail(p, "expected a new parameter name, found '" + name + "' a second time");
    if (name == "t" || name == "k" || name == "h" || name == "pi")
      fail(p,
           "expected a parameter name other than t, k, h and pi (reserved), found '" + name + "'");
    const auto set = std::find_if(overrides_.begin(), overrides_.end(),
                                  [&](const ParameterOverride& o) { return o.name == name; });
    if (set == overrides_.end()) {
      parameters_[name] = number(p, "value", std::nullopt,
                                 "value, a number or an expression of earlier parameters");
      continue;
    }
    // --set NAME=VALUE: read as the file's value would be, in its place
    set->fileValue = trim(p.attribute("value").value());
    set->number = evaluate(p, trim(set->value),
                           "parameter '" + name + "' set to '" + set->value +
                               "' (expected a number or an expression of earlier parameters)");
    parameters_[name] = set->number;
  }
}

// Overrides that name no <parameter> of the file: refused with the file's parameter names.
void Loader::unknownOverrides(const Node& root) {
  std::string unknown;
  for (const ParameterOverride& o : overrides_)
    if (!parameters_.count(o.name)) unknown += (unknown.empty() ? "'" : ", '") + o.name + "'";
  if (!unknown.empty())
    throw UnknownParameterError(
        file_, lineOf(root),
        "no <parameter> named " + unknown + " to set (" +
            (parameters_.empty() ? std::string("the file has no <parameters>")
                                 : "its parameters: " + parameterNames()) +
            ")");
  out_->overrides = overrides_;
}

void Loader::plugin(const Node& n) {
  check(n, {schema::allowed("plugin"), {}});
  if (!limits_.plugins) fail(n, "plugins are not allowed by this loader (LoaderLimits)");
  std::string path = requiredAttribute(n, "library", "path of a shared library");
  if (path[0] != '/' && file_.find('/') != std::string::npos)
    path = file_.substr(0, file_.find_last_of('/') + 1) + path;
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) fail(n, "expected a loadable shared library, found: " + std::string(::dlerror()));
  out_->plugins.emplace_back(handle, [](void* h) { ::dlclose(h); });
  using Entry = void (*)(FunctionRegistry*);
  auto entry = reinterpret_cast<Entry>(::dlsym(handle, NSDYN_PLUGIN_ENTRY_POINT));
  if (!entry)
    fail(n, "expected the library to export " NSDYN_PLUGIN_ENTRY_POINT
            "(nsdyn::io::FunctionRegistry*), found none in " +
                path);
  entry(&registry_);
}

void Loader::functions(const Node& n) {
  check(n, {schema::allowed("functions"), {"function"}});
  for (Node f : n.children("function")) {
    check(f, {schema::allowed("function"), {}, true});
    const std::string name = requiredAttribute(f, "name", "function name");
    validName(f, name);
    if (defined_.count(name))
      fail(f, "expected a new function name, found '" + name + "' a second time");
    const std::string args = choice(f, "args", schema::values("function", "args"), "");
    if (args.empty()) requiredAttribute(f, "args", "t, q or \"q v t\"");
    const std::string returns = choice(f, "returns", schema::values("function", "returns"), "");
    if (returns.empty()) requiredAttribute(f, "returns", "vector or matrix");
    DefinedFunction info;
    info.line = lineOf(f);
    const bool hasQ = args != "t", hasT = args != "q";
    Resolver resolve = [&, hasQ, hasT](const Reference& r) {
      Binding b;
      if (r.field.empty() && r.hasIndex && hasQ &&
          (r.base == "q" || (r.base == "v" && args == "q v t"))) {
        b.kind = r.base == "q" ? Binding::Kind::Q : Binding::Kind::V;
        b.index = r.index;
        if (r.base == "q")
          info.maxQ = std::max(info.maxQ, r.index), info.usesQ = true;
        else
          info.maxV = std::max(info.maxV, r.index), info.usesV = true;
        return b;
      }
      if (r.base == "t" && r.field.empty() && !r.hasIndex && hasT) {
        b.kind = Binding::Kind::Time;
        return b;
      }
      if (!r.field.empty() || r.hasIndex || !parameters_.count(r.base))
        throw ExpressionError("unknown name '" + r.text() + "' (expected " +
                              (args == "t"   ? "t"
                               : args == "q" ? "q[i]"
                                             : "q[i], v[i], t") +
                              " or a parameter)");
      return parameterBinding(r);
    };
    const auto text = splitEntries(f.text().get());
    if (text.empty()) fail(f, "expected the entries of the function, found none");
    std::vector<std::vector<Expression>> entries;
    for (const auto& row : text) {
      std::vector<Expression> r;
      for (const auto& e : row) {
        try {
          r.push_back(Expression::compile(e, resolve));
        } catch (const ExpressionError& err) {
          fail(f, err.what());
        }
      }
      entries.push_back(std::move(r));
    }
    if (returns == "matrix") {
      for (std::size_t i = 1; i < entries.size(); ++i)
        if (entries[i].size() != entries[0].size())
          fail(f, "expected every row with " + std::to_string(entries[0].size()) +
                      " entries (as row 0), found " + std::to_string(entries[i].size()) +
                      " in row " + std::to_string(i));
    }
    std::vector<Expression> flat;
    for (auto& r : entries) flat.insert(flat.end(), r.begin(), r.end());
    const std::size_t rows = entries.size(), cols = entries[0].size();
    auto vec = [flat](const Arguments& a) {
      SiconosVector out(flat.size());
      for (std::size_t i = 0; i < flat.size(); ++i) out(i) = flat[i].evaluate(a);
      return out;
    };
    auto mat = [flat, rows, cols](const Arguments& a) {
      SimpleMatrix out(rows, cols);
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) out(i, j) = flat[i * cols + j].evaluate(a);
      return out;
    };
    const bool vector = returns == "vector";
    if (args == "t") {
      if (vector)
        registry_.add(name, FunctionRegistry::VectorOfTime([vec](double t) {
                        return vec({nullptr, nullptr, t});
                      }));
      else
        registry_.add(name, FunctionRegistry::MatrixOfTime([mat](double t) {
                        return mat({nullptr, nullptr, t});
                      }));
    } else if (args == "q") {
      if (vector)
        registry_.add(name, FunctionRegistry::VectorOfQ([vec](const SiconosVector& q) {
                        return vec({&q, nullptr, 0.0});
                      }));
      else
        registry_.add(name, FunctionRegistry::MatrixOfQ([mat](const SiconosVector& q) {
                        return mat({&q, nullptr, 0.0});
                      }));
    } else {
      if (vector)
        registry_.add(name, FunctionRegistry::VectorOfQVT(
                                [vec](const SiconosVector& q, const SiconosVector& v, double t) {
                                  return vec({&q, &v, t});
                                }));
      else
        registry_.add(name, FunctionRegistry::MatrixOfQVT(
                                [mat](const SiconosVector& q, const SiconosVector& v, double t) {
                                  return mat({&q, &v, t});
                                }));
    }
    defined_[name] = info;
  }
}

// The system named @p name (out_->systems), nullptr if none; addSystem keeps the index.
SP::DynamicalSystem Loader::systemNamed(const std::string& name) const {
  const auto at = systemIndex_.find(name);
  return at == systemIndex_.end() ? nullptr : out_->systems[at->second].second;
}

void Loader::addSystem(const std::string& name, const SP::DynamicalSystem& ds) {
  ds->setName(name);  // Kernel messages name it "NewtonEulerDS 'arm'", not "#0"
  systemIndex_.emplace(name, out_->systems.size());
  out_->systems.emplace_back(name, ds);
}

void Loader::model(const Node& n) {
  check(n, {schema::allowed("model"), {"systems", "interactions", "scene"}});
  Node sceneNode = single(n, "scene", false);
  if (Node s = single(n, "systems", !sceneNode)) systems(s);
  // the scene first: joints may link its bodies (interactions and scene contacts in one
  // <GenericMechanical> problem, checked with the simulation)
  if (sceneNode) scene(sceneNode);
  if (Node i = single(n, "interactions", false)) interactions(i);
}

// The Kernel's own checks (integrators for every system, laws the problem accepts, ...).
void Loader::initializeModel(const Node& n, const std::shared_ptr<Simulation>& sim) {
  auto model = std::make_shared<Model>(out_->t0, out_->T, model_->nonSmoothDynamicalSystem());
  try {
    model->initialize(sim);
  } catch (const nsdyn::Error& e) {
    fail(n, std::string("the model does not initialise: ") + e.what());
  }
  model_ = model;
  out_->model = model;
  out_->simulation = sim;
}

}  // namespace nsdyn::io::xml
