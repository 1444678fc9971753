// <outputs>: tables (<output>, <column>, <plot>), <vtk> bodies (or the default ones),
// <sceneFiles>.

#include "Loader.hpp"

namespace nsdyn::io::xml {

Expression Loader::outputExpression(const Node& n, const char* attr,
                                    const std::string& meaning) const {
  const std::string text = requiredAttribute(n, attr, meaning);
  try {
    return Expression::compile(text, [this](const Reference& r) { return outputBinding(r); });
  } catch (const ExpressionError& e) {
    fail(n, "attribute '" + std::string(attr) + "': " + e.what());
  }
}

void Loader::outputs(const Node& n) {
  OutputsSpec& spec = out_->outputs;
  spec.clock->h = out_->h;
  spec.clock->t = out_->t0;
  if (n) {
    check(n, {schema::allowed("outputs"), {"output", "vtk", "sceneFiles"}});
    if (Node f = single(n, "sceneFiles", false)) {
      if (!out_->scene) fail(f, "expected a model with a <scene>, found none");
      check(f, {schema::allowed("sceneFiles"), {}});
      SceneFilesSpec& files = out_->scene->files;
      files.every = integer(f, "every", 1, 1, "steps between frames");
      files.vtk = boolean(f, "vtk", files.vtk);
      files.hdf5 = boolean(f, "hdf5", files.hdf5);
    }
    spec.format = choice(n, "format", schema::values("outputs", "format"), "csv");
    std::set<std::string> names;
    for (Node o : n.children("output")) {
      check(o, {schema::allowed("output"), {"column", "plot"}});
      OutputSpec out;
      out.name = requiredAttribute(o, "name", "output name, the file or dataset name");
      validName(o, out.name, true);
      if (!names.insert(out.name).second)
        fail(o, "expected a new output name, found '" + out.name + "' a second time");
      out.every = integer(o, "every", 1, 1, "steps between rows");
      out.initialRow = boolean(o, "initial-row", true);
      out.beforeRows = boolean(o, "before-rows", false);
      out.maxRows = static_cast<std::size_t>(
          integer(o, "max-rows", 0, 1, "rows of the table, the run ends when it has them"));
      if (out.beforeRows && out_->simulationType != "EventDriven")
        fail(o,
             "attribute 'before-rows': expected an EventDriven simulation (rows before nonsmooth "
             "events), found " +
                 out_->simulationType);
      for (Node c : o.children("column")) {
        check(c, {schema::allowed("column"), {}});
        ColumnSpec col;
        col.name = requiredAttribute(c, "name", "column name");
        if (col.name.find_first_of(",\"\n") != std::string::npos)
          fail(c, "expected a column name without commas and quotes, found '" + col.name + "'");
        for (const ColumnSpec& other : out.columns)
          if (other.name == col.name)
            fail(c, "expected a new column name, found '" + col.name + "' a second time");
        col.value = outputExpression(c, "value", "an expression");
        col.sum = boolean(c, "sum", false);
        if (c.attribute("before")) {
          col.hasBefore = true;
          col.before = outputExpression(c, "before", "an expression");
        }
        if (c.attribute("initial")) {
          if (trim(c.attribute("initial").value()) == "next") {
            col.initialMode = ColumnSpec::Initial::NextRow;
          } else {
            col.initialMode = ColumnSpec::Initial::Expression;
            col.initial = outputExpression(c, "initial", "an expression or next");
          }
        }
        out.columns.push_back(std::move(col));
      }
      if (out.columns.empty()) fail(o, "expected at least one <column>, found none");
      if (Node p = single(o, "plot", false)) {
        check(p, {schema::allowed("plot"), {"curve"}});
        out.plotTitle = p.attribute("title").value();
        for (Node c : p.children("curve")) {
          check(c, {schema::allowed("curve"), {}});
          const std::string column = requiredAttribute(c, "column", "a column name");
          CurveSpec curve;
          bool found = false;
          for (std::size_t i = 0; i < out.columns.size(); ++i)
            if (out.columns[i].name == column) curve.column = i, found = true;
          if (!found) {
            std::vector<std::string> cols;
            for (const ColumnSpec& col : out.columns) cols.push_back(col.name);
            fail(c,
                 "reference to an undefined column '" + column + "' (columns: " + join(cols) + ")");
          }
          curve.title = c.attribute("title") ? c.attribute("title").value() : column;
          curve.panel = c.attribute("panel").value();
          out.curves.push_back(curve);
        }
      }
      spec.outputs.push_back(std::move(out));
    }
    if (Node v = single(n, "vtk", false)) {
      check(v, {schema::allowed("vtk"), {"body"}});
      spec.vtk.every = integer(v, "every", 1, 1, "steps between frames");
      for (Node b : v.children("body")) {
        check(b, {schema::allowed("body"), {}});
        BodySpec body;
        body.system = requiredAttribute(b, "system", "a Lagrangian system or rigid body name");
        SP::DynamicalSystem ds = systemNamed(body.system);
        if (!ds) fail(b, "reference to an undefined system '" + body.system + "'");
        defaultBody(body, ds);
        if (b.attribute("x")) body.x = outputExpression(b, "x", "an expression");
        if (b.attribute("y")) body.y = outputExpression(b, "y", "an expression");
        if (b.attribute("z")) body.z = outputExpression(b, "z", "an expression");
        body.radius = number(b, "radius", 0.0, "radius");
        spec.vtk.bodies.push_back(std::move(body));
      }
    } else {
      defaultVtk();
    }
  } else {
    defaultVtk();
  }
}

// x, y, z = q[0], q[1], q[2] where they exist (0 otherwise); the velocity
// v[0..2] likewise; rigid bodies: their quaternion q[3..6] and angular
// velocity in the world frame, others the identity and 0.
void Loader::defaultBody(BodySpec& body, const SP::DynamicalSystem& ds) const {
  auto compile = [this](const std::string& text) {
    return Expression::compile(text, [this](const Reference& r) { return outputBinding(r); });
  };
  const std::string& S = body.system;
  body.rigid = ds->kind() == DynamicalSystemKind::NewtonEuler;
  const bool lagrangian = ds->kind() == DynamicalSystemKind::Lagrangian;
  Expression* target[3] = {&body.x, &body.y, &body.z};
  body.orientation[0] = compile("1");
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string index = "[" + std::to_string(i) + "]";
    if (body.rigid || (lagrangian && i < ds->dimension())) {
      *target[i] = compile(S + ".q" + index);
      body.velocity[i] = compile(S + ".v" + index);
    }
    if (body.rigid) body.angularVelocity[i] = compile(S + ".omega_world" + index);
  }
  if (body.rigid)
    for (std::size_t j = 0; j < 4; ++j)
      body.orientation[j] = compile(S + ".q[" + std::to_string(3 + j) + "]");
}

void Loader::defaultVtk() {
  OutputsSpec& spec = out_->outputs;
  spec.vtk.every = spec.outputs.empty() ? 1 : spec.outputs.front().every;
  // a scene's bodies are drawn by the scene's own VTK files (SceneVtkWriter, with their
  // shapes and contacts): 14 expressions each here would cost ~2.9 KB per body, half the
  // load time, and copy every body's state at every row. A scene with joints in one
  // GenericMechanical problem runs on the Kernel's TimeStepping, without those files: its
  // bodies are drawn here.
  const bool kernelScene =
      out_->simulation &&
      (std::dynamic_pointer_cast<GenericMechanical>(out_->simulation->oneStepNSProblem()) ||
       std::dynamic_pointer_cast<RollingFrictionContact>(out_->simulation->oneStepNSProblem()));
  for (const auto& entry : out_->systems)
    if (entry.second->kind() != DynamicalSystemKind::FirstOrder &&
        (kernelScene || !bodyIndex_.count(entry.first))) {
      BodySpec body;
      body.system = entry.first;
      defaultBody(body, entry.second);
      spec.vtk.bodies.push_back(std::move(body));
    }
}

}  // namespace nsdyn::io::xml
