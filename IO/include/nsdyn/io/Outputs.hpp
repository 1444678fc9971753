/// @file Outputs.hpp
/// @brief What a run records (the `<outputs>` of a model file) and the
///        recorder that evaluates it step by step into tables.
#ifndef NSDYN_IO_OUTPUTS_HPP
#define NSDYN_IO_OUTPUTS_HPP

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/StepStatistics.hpp"
#include "nsdyn/io/Expression.hpp"

namespace nsdyn::io {

/// Time and step of the values being recorded; the output expressions read
/// `t`, `k` and `h` from here.
struct OutputClock {
  double t = 0.0;  ///< time of the state (t0 for row 0, t_{k} after step k)
  long k = 0;      ///< steps done
  double h = 0.0;  ///< time step
};

/// One column of an output table.
struct ColumnSpec {
  /// How row 0 (the initial state) is filled.
  enum class Initial {
    Evaluate,    ///< `value` evaluated at the initial state (sum columns: 0)
    Expression,  ///< the `initial` expression
    NextRow      ///< the value of the next recorded row (`initial="next"`)
  };
  std::string name;
  Expression value;
  Initial initialMode = Initial::Evaluate;
  Expression initial;
  /// The column holds the running sum of `value` over the steps done.
  bool sum = false;
  /// Value on the row written just before a nonsmooth event (EventDriven
  /// outputs with before-rows); `value` when not given.
  bool hasBefore = false;
  Expression before;
};

/// One curve of the plot of an output: column index against column 0.
struct CurveSpec {
  std::size_t column = 0;
  std::string title;
  std::string panel;  ///< y label; curves with the same panel share it
};

/// One output table (`<output>`): a CSV file NAME.csv, or a dataset NAME in
/// the HDF5 file.
struct OutputSpec {
  std::string name;
  long every = 1;           ///< a row after every `every` steps
  bool initialRow = true;   ///< row 0 holds the initial state
  bool beforeRows = false;  ///< EventDriven: a row just before each nonsmooth event too
  /// The table holds at most this many rows (0: no limit); the run ends
  /// when it has them (Recorder::full()).
  std::size_t maxRows = 0;
  std::vector<ColumnSpec> columns;
  std::string plotTitle;          ///< empty: the output name
  std::vector<CurveSpec> curves;  ///< empty: every column but the first, one panel
};

/// A point drawn in the VTK files: its coordinates (expressions) and radius,
/// with its orientation, velocity and angular velocity (point arrays).
struct BodySpec {
  std::string system;
  Expression x, y, z;
  double radius = 0.0;
  /// Whether the system is a rigid body (NewtonEulerDS).
  bool rigid = false;
  /// Unit quaternion (q0 q1 q2 q3, scalar first, body → world): a rigid
  /// body's q[3..6]; (1, 0, 0, 0) for other systems.
  Expression orientation[4];
  /// Velocity of the point (world frame): a rigid body's v[0..2]; the
  /// system's v[0..2] where they exist for Lagrangian systems (0 otherwise).
  Expression velocity[3];
  /// Angular velocity in the world frame (R Ω of a rigid body; 0 otherwise).
  Expression angularVelocity[3];
};

/// VTK frames (`<vtk>`): one .vtp per frame, listed in a .pvd.
struct VtkSpec {
  long every = 1;
  std::vector<BodySpec> bodies;
};

/// Everything the `<outputs>` section asks for.
struct OutputsSpec {
  std::string format = "csv";  ///< "csv" or "hdf5"
  std::vector<OutputSpec> outputs;
  VtkSpec vtk;
  /// Shared with the compiled expressions (they read t, k, h from it).
  std::shared_ptr<OutputClock> clock = std::make_shared<OutputClock>();
};

/// The rows recorded for one output.
struct Table {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

/// One VTK frame: the step, the time and each body's point, orientation,
/// velocity and angular velocity.
struct VtkFrame {
  long step = 0;
  double time = 0.0;
  std::vector<double> points;             ///< x, y, z per body
  std::vector<double> orientations;       ///< q0, q1, q2, q3 per body
  std::vector<double> velocities;         ///< vx, vy, vz per body (world frame)
  std::vector<double> angularVelocities;  ///< ωx, ωy, ωz per body (world frame)
};

/// Evaluates the outputs of a run into tables, in memory (the files are
/// written at the end, so that a failed run leaves nothing half-written).
class Recorder {
 public:
  explicit Recorder(const OutputsSpec& spec);

  /// Row 0 of every output with an initial row, at time @p t0 (step 0).
  void recordInitial(double t0);
  /// After step @p k (1-based) reaching time @p t: sums, then the rows of
  /// the outputs whose `every` divides k.
  void recordStep(long k, double t);
  /// EventDriven: after processed event number @p k (1-based) at time @p t:
  /// as recordStep(), preceded, for a nonsmooth event, by the before-rows.
  void recordEvent(long k, double t, bool nonSmooth);
  /// True when an output with `max-rows` has all its rows: the run ends.
  bool full() const;
  /// The name of the first full output (empty when none is).
  std::string fullOutput() const;
  /// VTK frames wanted from now on (frame 0 at recordInitial, then every vtk.every steps).
  void enableVtk(bool on) { vtkEnabled_ = on; }
  bool vtkEnabled() const { return vtkEnabled_; }

  const std::vector<Table>& tables() const { return tables_; }
  std::vector<Table>& tablesMutable() { return tables_; }
  const std::vector<VtkFrame>& frames() const { return frames_; }
  std::vector<VtkFrame>& framesMutable() { return frames_; }
  /// Running sums per output and column (checkpoints save them).
  std::vector<std::vector<double>>& sumsMutable() { return sums_; }
  /// Per output: row 0 still waits for the next row's values.
  std::vector<char>& pendingNextMutable() { return pendingNext_; }
  const OutputsSpec& spec() const { return spec_; }

 private:
  void recordFrame(long k, double t);
  /// Append @p row to table @p o unless it already has its max-rows.
  void append(std::size_t o, std::vector<double> row);
  const OutputsSpec& spec_;
  std::vector<Table> tables_;
  std::vector<std::vector<double>> sums_;
  std::vector<char> pendingNext_;
  std::vector<VtkFrame> frames_;
  bool vtkEnabled_ = false;
};

/// Totals of a run for its summary, kept step by step (and in checkpoints,
/// so that a restarted run reports the whole run).
struct RunTotals {
  long steps = 0;               ///< steps done
  long activeSteps = 0;         ///< steps with at least one active relation
  long activations = 0;         ///< relations entering the active set (impacts, for impact laws)
  long solverCalls = 0;         ///< steps where a nonsmooth problem was solved
  long failedSolves = 0;        ///< solves whose status was not NSD_OK
  long fallbackSolves = 0;      ///< solves handed to the fallback solver (not checkpointed: this process only)
  long totalIterations = 0;     ///< solver iterations summed over the run
  int maxIterations = 0;        ///< largest iteration count of one solve
  double maxResidual = 0.0;     ///< largest solver residual
  long lastActive = 0;          ///< active relations of the last step
  double solverSeconds = 0.0;   ///< solver wall time summed
  long newtonSteps = 0;         ///< steps that ran Newton iterations
  long newtonIterations = 0;    ///< Newton iterations summed over the run
  int maxNewtonIterations = 0;  ///< largest Newton iteration count of one step
  long newtonFailures = 0;      ///< steps whose Newton loop stopped at its maximum unconverged
  long projections = 0;         ///< position projections (TimeSteppingDirectProjection)
  int maxProjections = 0;       ///< largest projection count of one step

  /// Account for one step's statistics.
  void add(const StepStatistics& s);
};

}  // namespace nsdyn::io

#endif
