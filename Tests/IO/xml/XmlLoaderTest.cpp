// XmlLoader: what a valid file builds (systems, relations, laws, problems,
// options, outputs), C++ callables and plugins by name, and the example twins.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>

#include <nsdyn/Kernel.hpp>
#include <nsdyn/io/XmlLoader.hpp>

#include "xml_fixture.hpp"

using namespace nsdyn;
using nsdyn::io::LoadedModel;
using nsdyn::io::XmlLoader;

namespace {

const std::string kExamples = std::string(NSDYN_SOURCE_DIR) + "/Examples";

// Run @p run for all its steps, recording its outputs; returns the recorder's tables.
std::vector<io::Table> simulate(LoadedModel& run) {
  io::Recorder recorder(run.outputs);
  recorder.recordInitial(run.t0);
  for (long k = 1; k <= run.steps; ++k) {
    run.simulation->computeOneStep();
    recorder.recordStep(k, run.simulation->nextTime());
    run.simulation->nextStep();
  }
  return recorder.tables();
}

}  // namespace

class XmlLoaderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(XmlLoaderTest);
  CPPUNIT_TEST(buildsTheBouncingBall);
  CPPUNIT_TEST(parametersAndExpressionsInValues);
  CPPUNIT_TEST(matrixForms);
  CPPUNIT_TEST(solverOptionsAreApplied);
  CPPUNIT_TEST(delassusStorageDefaultsToTheKernels);
  CPPUNIT_TEST(firstOrderRelationWithFunctions);
  CPPUNIT_TEST(registeredCallablesByName);
  CPPUNIT_TEST(pluginLibraryAddsFunctions);
  CPPUNIT_TEST(outputsInitialNextAndSum);
  CPPUNIT_TEST(everyExampleTwinLoads);
  CPPUNIT_TEST(eventDrivenSimulation);
  CPPUNIT_TEST(maxRowsEndsTheTable);
  CPPUNIT_TEST(conditionsInFunctionEntries);
  CPPUNIT_TEST(eventStatisticsInOutputs);
  CPPUNIT_TEST_SUITE_END();

 public:
  void buildsTheBouncingBall() {
    auto run = XmlLoader().loadString(test::ballModel(), "ball.xml");
    CPPUNIT_ASSERT_EQUAL(std::string("ball"), run->name);
    CPPUNIT_ASSERT_EQUAL(std::string("TimeStepping"), run->simulationType);
    CPPUNIT_ASSERT_EQUAL(200L, run->steps);
    CPPUNIT_ASSERT(run->simulation->isInitialized());
    auto ball = std::dynamic_pointer_cast<LagrangianLinearTIDS>(run->system("ball"));
    CPPUNIT_ASSERT(ball);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, ball->q()(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.4 * 0.1 * 0.1, ball->mass()(2, 2), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-9.81, ball->computeFExt(0.0)(0), 0.0);
    auto floor = run->interaction("floor");
    CPPUNIT_ASSERT(floor);
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonImpactNSL"), floor->nonSmoothLaw().className());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(
        0.9, static_cast<const NewtonImpactNSL&>(floor->nonSmoothLaw()).e(), 0.0);
    CPPUNIT_ASSERT_EQUAL(std::string("lemke"), run->simulation->oneStepNSProblem()->solverName());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), run->outputs.outputs.size());
    CPPUNIT_ASSERT_EQUAL(std::string("csv"), run->outputs.format);
  }

  void parametersAndExpressionsInValues() {
    const std::string systems =
        "      <LagrangianLinearTIDS name=\"ball\">\n"
        "        <q0>2*R, sqrt(4), -m/2</q0>\n"
        "        <mass>m, 0, 0; 0, m, 0; 0, 0, 2^-1</mass>\n"
        "        <K rows=\"3\" cols=\"3\">1 0 0 0 2 0 0 0 3</K>\n"
        "        <C form=\"diagonal\">0.1 0.2 0.3</C>\n"
        "      </LagrangianLinearTIDS>\n";
    auto run = XmlLoader().loadString(test::ballModel(systems));
    auto ball = std::dynamic_pointer_cast<LagrangianLinearTIDS>(run->system("ball"));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.2, ball->q()(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, ball->q()(1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.5, ball->q()(2), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, ball->velocity()(0), 0.0);  // v0 defaults to zeros
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, ball->mass()(2, 2), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, ball->K()(1, 1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, ball->K()(0, 1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3, ball->C()(2, 2), 0.0);
  }

  void matrixForms() {
    // a 1-row matrix shaped by rows/cols, and a two-system interaction
    const std::string systems =
        "      <LagrangianLinearTIDS name=\"a\"><q0>0</q0><mass>1</mass></LagrangianLinearTIDS>\n"
        "      <LagrangianLinearTIDS name=\"b\"><q0>1</q0><mass>2</mass></LagrangianLinearTIDS>\n";
    const std::string interactions =
        "      <interaction name=\"gap\" systems=\"a b\">\n"
        "        <NewtonImpactNSL e=\"0\"/>\n"
        "        <LagrangianLinearTIR><H rows=\"1\" cols=\"2\">-1 "
        "1</H><b>-0.5</b></LagrangianLinearTIR>\n"
        "      </interaction>\n";
    const std::string outputs =
        "  <outputs><output name=\"o\"><column name=\"t\" value=\"t\"/>"
        "<column name=\"gap\" value=\"gap.y0[0]\"/></output></outputs>\n";
    auto run = XmlLoader().loadString(test::ballModel(systems, interactions, "", outputs));
    auto gap = run->interaction("gap");
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), gap->dynamicalSystems().size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, gap->y(0)(0), 1e-15);
  }

  // Without `storage`, a problem keeps the Kernel's Delassus storage (sparse-block), as a C++
  // driver's LCP does; `storage="dense"` still gives the dense one.
  void delassusStorageDefaultsToTheKernels() {
    auto storageOf = [](const std::string& lcp) {
      const std::string simulation =
          "  <simulation T=\"1\" h=\"0.01\">\n"
          "    <MoreauJeanOSI theta=\"0.5\"/>\n"
          "    " +
          lcp +
          "\n"
          "  </simulation>\n";
      return XmlLoader()
          .loadString(test::ballModel("", "", simulation))
          ->simulation->oneStepNSProblem()
          ->matrixStorage();
    };
    CPPUNIT_ASSERT(LCP("lemke").matrixStorage() == OneStepNSProblem::MatrixStorage::SparseBlock);
    CPPUNIT_ASSERT(storageOf("<LCP solver=\"lemke\"/>") == LCP("lemke").matrixStorage());
    CPPUNIT_ASSERT(storageOf("<LCP solver=\"lemke\" storage=\"dense\"/>") ==
                   OneStepNSProblem::MatrixStorage::Dense);
    CPPUNIT_ASSERT(storageOf("<LCP solver=\"lemke\" storage=\"sparse-block\"/>") ==
                   OneStepNSProblem::MatrixStorage::SparseBlock);
  }

  void solverOptionsAreApplied() {
    const std::string simulation =
        "  <simulation T=\"1\" h=\"0.01\" steps=\"7\">\n"
        "    <MoreauJeanOSI theta=\"1\"/>\n"
        // auto reads every option of the table (each solver it runs gets those it reads)
        "    <LCP solver=\"auto\" warm-start=\"false\" storage=\"sparse-block\">\n"
        "      <options max-iterations=\"77\" tolerance=\"1e-11\" relaxation=\"1.5\" threads=\"2\" "
        "time-limit=\"3\">\n"
        "        <lemke pivot-tolerance=\"1e-13\"/>\n"
        "        <pgs block-size=\"4\" check-every=\"2\"/>\n"
        "        <enumerative max-size=\"10\"/>\n"
        "        <newton merit=\"min\" max-line-search=\"5\" armijo-sigma=\"0.01\" "
        "step-shrink=\"0.25\"/>\n"
        "        <nsgs local-solver=\"projection\" local-tolerance=\"1e-9\" "
        "local-max-iterations=\"9\" shuffle=\"true\" seed=\"5\" anderson=\"6\"/>\n"
        "        <apgd max-backtracks=\"3\" adaptive-restart=\"false\"/>\n"
        "        <bb memory=\"4\" sigma=\"0.001\"/>\n"
        "        <admm rho=\"2\" adaptive=\"0\"/>\n"
        "      </options>\n"
        "    </LCP>\n"
        "  </simulation>\n";
    auto run = XmlLoader().loadString(test::ballModel("", "", simulation));
    CPPUNIT_ASSERT_EQUAL(7L, run->steps);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, run->simulation->integrators().front()->theta(), 0.0);
    const OneStepNSProblem& p = *run->simulation->oneStepNSProblem();
    CPPUNIT_ASSERT_EQUAL(std::string("auto"), p.solverName());
    CPPUNIT_ASSERT(!p.warmStart());
    CPPUNIT_ASSERT(p.matrixStorage() == OneStepNSProblem::MatrixStorage::SparseBlock);
    const NsdSolverOptions& o = p.options();
    CPPUNIT_ASSERT_EQUAL(77, o.max_iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-11, o.tolerance, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.5, o.relaxation, 0.0);
    CPPUNIT_ASSERT_EQUAL(2, o.threads);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, o.time_limit, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-13, o.lemke.pivot_tolerance, 0.0);
    CPPUNIT_ASSERT_EQUAL(4, o.pgs.block_size);
    CPPUNIT_ASSERT_EQUAL(2, o.pgs.check_every);
    CPPUNIT_ASSERT_EQUAL(10, o.enumerative.max_size);
    CPPUNIT_ASSERT_EQUAL(NSD_MERIT_MIN, o.newton.merit);
    CPPUNIT_ASSERT_EQUAL(5, o.newton.max_line_search);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.25, o.newton.step_shrink, 0.0);
    CPPUNIT_ASSERT_EQUAL(NSD_FC_LOCAL_PROJECTION, o.nsgs.local_solver);
    CPPUNIT_ASSERT_EQUAL(9, o.nsgs.local_max_iterations);
    CPPUNIT_ASSERT_EQUAL(1, o.nsgs.shuffle);
    CPPUNIT_ASSERT_EQUAL(5u, o.nsgs.seed);
    CPPUNIT_ASSERT_EQUAL(6, o.nsgs.anderson);
    CPPUNIT_ASSERT_EQUAL(3, o.apgd.max_backtracks);
    CPPUNIT_ASSERT_EQUAL(0, o.apgd.adaptive_restart);
    CPPUNIT_ASSERT_EQUAL(4, o.bb.memory);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, o.admm.rho, 0.0);
    CPPUNIT_ASSERT_EQUAL(0, o.admm.adaptive);
  }

  void firstOrderRelationWithFunctions() {
    const std::string xml =
        "<nsdyn>\n"
        "  <functions>\n"
        "    <function name=\"A\" args=\"t\" returns=\"matrix\">0, 1; -1 - t, 0</function>\n"
        "    <function name=\"b\" args=\"t\" returns=\"vector\">0, sin(t)</function>\n"
        "    <function name=\"Ct\" args=\"t\" returns=\"matrix\">0, 1</function>\n"
        "    <function name=\"e\" args=\"t\" returns=\"vector\">t</function>\n"
        "  </functions>\n"
        "  <model><systems>\n"
        "    <FirstOrderLinearDS name=\"osc\"><x0>1 0</x0><A function=\"A\"/><b "
        "function=\"b\"/></FirstOrderLinearDS>\n"
        "  </systems><interactions>\n"
        "    <interaction name=\"relay\" systems=\"osc\">\n"
        "      <RelayNSL lb=\"-2\" ub=\"3\"/>\n"
        "      <FirstOrderLinearR><C function=\"Ct\"/><D>0.5</D><B>0; 1</B><e "
        "function=\"e\"/><F>2</F><u>0.25</u></FirstOrderLinearR>\n"
        "    </interaction>\n"
        "  </interactions></model>\n"
        "  <simulation T=\"1\" h=\"0.1\"><EulerMoreauOSI/><Relay/></simulation>\n"
        "</nsdyn>\n";
    auto run = XmlLoader().loadString(xml);
    auto osc = std::dynamic_pointer_cast<FirstOrderLinearDS>(run->system("osc"));
    CPPUNIT_ASSERT(!osc->isTimeInvariant());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-3.0, osc->computeA(2.0)(1, 0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sin(0.5), osc->computeb(0.5)(1), 0.0);
    auto relay = run->interaction("relay");
    const auto& law = static_cast<const RelayNSL&>(relay->nonSmoothLaw());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-2.0, law.lb(), 0.0);
    const auto& r = static_cast<const FirstOrderLinearR&>(relay->relation());
    CPPUNIT_ASSERT(r.hasD() && r.hasE() && r.hasF());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.7, r.computee(0.7, 1)(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, r.computeFu(0.0, 1)(0), 0.0);
    CPPUNIT_ASSERT_EQUAL(10L, run->steps);
    run->simulation->computeOneStep();  // it runs
  }

  void registeredCallablesByName() {
    // The ImpactingStick twin, with the tip functions as C++ callables instead
    // of <function> definitions: the same numbers.
    std::string text = readFile(kExamples + "/ImpactingStick/ImpactingStick.xml");
    const auto begin = text.find("<functions>"),
               end = text.find("</functions>") + std::string("</functions>").size();
    text.erase(begin, end - begin);
    XmlLoader loader;
    const double l = 1.0;
    loader.functions().add("tipGap", io::FunctionRegistry::VectorOfQ([l](const SiconosVector& q) {
                             return SiconosVector{q(1) - 0.5 * l * std::cos(q(2)), 0.0};
                           }));
    loader.functions().add("tipJacobian",
                           io::FunctionRegistry::MatrixOfQ([l](const SiconosVector& q) {
                             return SimpleMatrix{{0.0, 1.0, 0.5 * l * std::sin(q(2))},
                                                 {-1.0, 0.0, -0.5 * l * std::cos(q(2))}};
                           }));
    auto registered = loader.loadString(text, "registered.xml");
    auto defined = XmlLoader().loadFile(kExamples + "/ImpactingStick/ImpactingStick.xml");
    const auto a = simulate(*registered), b = simulate(*defined);
    CPPUNIT_ASSERT_EQUAL(b.front().rows.size(), a.front().rows.size());
    for (std::size_t r = 0; r < a.front().rows.size(); ++r)
      for (std::size_t c = 0; c < a.front().columns.size(); ++c)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(b.front().rows[r][c], a.front().rows[r][c], 0.0);
    // the gap reached the floor: the relation did act
    double minGap = 1.0;
    for (const auto& row : a.front().rows) minGap = std::min(minGap, row[8]);
    CPPUNIT_ASSERT(minGap < 1e-3);
  }

  void pluginLibraryAddsFunctions() {
    const std::string systems =
        "      <LagrangianDS name=\"ball\">\n"
        "        <q0>1 0 0</q0>\n"
        "        <mass form=\"diagonal\">1 1 1</mass>\n"
        "        <fExt function=\"pluginForce\"/>\n"
        "      </LagrangianDS>\n";
    std::string xml = test::ballModel(systems);
    xml.replace(xml.find("  <model>"), 0,
                "  <plugin library=\"" + std::string(NSDYN_TEST_PLUGIN) + "\"/>\n");
    auto run = XmlLoader().loadString(xml);
    auto ball = std::dynamic_pointer_cast<LagrangianDS>(run->system("ball"));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-9.81, ball->computeFExt(2.0)(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, ball->computeFExt(2.0)(1), 0.0);
  }

  void outputsInitialNextAndSum() {
    const std::string outputs =
        "  <outputs>\n"
        "    <output name=\"o\" every=\"2\">\n"
        "      <column name=\"k\" value=\"k\"/>\n"
        "      <column name=\"n\" value=\"k\" initial=\"next\"/>\n"
        "      <column name=\"s\" value=\"h\" sum=\"true\"/>\n"
        "      <column name=\"i\" value=\"1\" initial=\"-1\"/>\n"
        "    </output>\n"
        "    <output name=\"p\" initial-row=\"false\"><column name=\"z\" value=\"ball.q[0] - "
        "floor.y0[0]\"/></output>\n"
        "  </outputs>\n";
    const std::string simulation =
        "  <simulation T=\"1\" h=\"0.25\" steps=\"5\"><MoreauJeanOSI/><LCP/></simulation>\n";
    auto run = XmlLoader().loadString(test::ballModel("", "", simulation, outputs));
    const auto tables = simulate(*run);
    const auto& o = tables[0];
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), o.rows.size());  // k = 0, 2, 4
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, o.rows[0][0], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, o.rows[0][1], 0.0);  // initial="next"
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, o.rows[2][1], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, o.rows[0][2], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, o.rows[2][2], 0.0);  // 4 h: summed over every step
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, o.rows[0][3], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, o.rows[1][3], 0.0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), tables[1].rows.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, tables[1].rows[4][0], 0.0);  // z - y0 = 0 (H = [1 0 0])
  }

  void everyExampleTwinLoads() {
    for (const char* name : {"BouncingBallTS", "DiodeBridge", "ColumnOfBeadsTS", "Woodpecker",
                             "CircuitRLCD", "FrictionOscillator", "ImpactingStick",
                             "BouncingBallED", "LinearOscillatorED", "BallBetweenWallsED"}) {
      auto run = XmlLoader().loadFile(kExamples + "/" + name + "/" + name + ".xml");
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name, std::string(name), run->name);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name, std::string(name), run->outputs.outputs.front().name);
    }
  }

  void eventDrivenSimulation() {
    auto run = XmlLoader().loadFile(kExamples + "/BouncingBallED/BouncingBallED.xml");
    CPPUNIT_ASSERT_EQUAL(std::string("EventDriven"), run->simulationType);
    auto ed = std::dynamic_pointer_cast<EventDriven>(run->simulation);
    CPPUNIT_ASSERT(ed);
    CPPUNIT_ASSERT(ed->accelerationProblem());
    CPPUNIT_ASSERT(run->outputs.outputs.front().beforeRows);
  }

  void maxRowsEndsTheTable() {
    const std::string outputs =
        "  <outputs>\n"
        "    <output name=\"o\" max-rows=\"3\"><column name=\"k\" value=\"k\"/></output>\n"
        "    <output name=\"p\"><column name=\"k\" value=\"k\"/></output>\n"
        "  </outputs>\n";
    auto run = XmlLoader().loadString(test::ballModel("", "", "", outputs));
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), run->outputs.outputs[0].maxRows);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), run->outputs.outputs[1].maxRows);
    io::Recorder recorder(run->outputs);
    recorder.recordInitial(run->t0);
    CPPUNIT_ASSERT(!recorder.full());
    for (long k = 1; k <= 4; ++k) {
      run->simulation->computeOneStep();
      recorder.recordStep(k, run->simulation->nextTime());
      run->simulation->nextStep();
      CPPUNIT_ASSERT_EQUAL(k >= 2, recorder.full());
    }
    CPPUNIT_ASSERT_EQUAL(std::string("o"), recorder.fullOutput());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), recorder.tables()[0].rows.size());  // k = 0, 1, 2
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, recorder.tables()[0].rows[2][0], 0.0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), recorder.tables()[1].rows.size());
  }

  void conditionsInFunctionEntries() {
    // commas inside if( , , ) do not separate entries, with or without commas between them
    const std::string functions =
        "<functions>\n"
        "  <function name=\"f\" args=\"t\" returns=\"vector\">if(t &gt; 1, 2, 3), 0, t</function>\n"
        "  <function name=\"g\" args=\"t\" returns=\"vector\">if(t &lt; 1, -m*g, 0) 0 max(t, "
        "2)</function>\n"
        "</functions>\n";
    const std::string systems =
        "      <LagrangianLinearTIDS name=\"ball\">\n"
        "        <q0>1 0 0</q0>\n"
        "        <mass form=\"diagonal\">m m 0.4*m*R*R</mass>\n"
        "        <fExt function=\"f\"/>\n"
        "      </LagrangianLinearTIDS>\n"
        "      <LagrangianLinearTIDS name=\"other\">\n"
        "        <q0>1 0 0</q0>\n"
        "        <mass form=\"diagonal\">m m 0.4*m*R*R</mass>\n"
        "        <fExt function=\"g\"/>\n"
        "      </LagrangianLinearTIDS>\n";
    std::string text = test::ballModel(systems);
    text.insert(text.find("  <model>"), functions);
    auto run = XmlLoader().loadString(text);
    auto ball = std::dynamic_pointer_cast<LagrangianDS>(run->system("ball"));
    auto other = std::dynamic_pointer_cast<LagrangianDS>(run->system("other"));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, ball->computeFExt(0.5)(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, ball->computeFExt(1.5)(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.5, ball->computeFExt(1.5)(2), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-9.81, other->computeFExt(0.5)(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, other->computeFExt(1.5)(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, other->computeFExt(3.0)(2), 0.0);
  }

  void eventStatisticsInOutputs() {
    auto run = XmlLoader().loadFile(kExamples + "/BallBetweenWallsED/BallBetweenWallsED.xml");
    auto& sim = dynamic_cast<EventDriven&>(*run->simulation);
    io::Recorder recorder(run->outputs);
    std::size_t resting = 0;
    bool restedBefore = false;
    while (sim.hasNextEvent() && sim.startingTime() < 3.0) {
      if (!sim.advanceToEvent()) break;
      sim.processEvents();
      const EventStatistics& ev = sim.lastEventStatistics();
      const std::size_t rows = recorder.tables()[0].rows.size();
      recorder.recordEvent(sim.numberOfEvents(), sim.startingTime(),
                           ev.type == EventType::NonSmooth);
      const auto& table = recorder.tables()[0].rows;
      CPPUNIT_ASSERT_DOUBLES_EQUAL(static_cast<double>(ev.restingRelations), table.back()[7], 0.0);
      if (table.size() == rows + 2)  // the before-row: |I2| before the event
        CPPUNIT_ASSERT_DOUBLES_EQUAL(static_cast<double>(resting), table[rows][7], 0.0);
      restedBefore = restedBefore || ev.restingRelations > 0;
      resting = ev.restingRelations;
    }
    CPPUNIT_ASSERT(restedBefore);  // the bounces accumulated before t = 3
    // event statistics exist in EventDriven runs only
    const std::string outputs =
        "  <outputs><output name=\"o\"><column name=\"r\" "
        "value=\"event.resting\"/></output></outputs>\n";
    try {
      XmlLoader().loadString(test::ballModel("", "", "", outputs));
      CPPUNIT_FAIL("event.resting loaded in a TimeStepping run");
    } catch (const io::LoadError& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("EventDriven simulations only") !=
                     std::string::npos);
    }
  }

 private:
  static std::string readFile(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    CPPUNIT_ASSERT_MESSAGE(path, f);
    std::string text;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
    return text;
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(XmlLoaderTest);
