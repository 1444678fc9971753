/// @file Outputs.hpp
/// @brief What a run records (the `<outputs>` of a model file) and the
///        recorder that evaluates it step by step into tables.
#ifndef NSDYN_IO_OUTPUTS_HPP
#define NSDYN_IO_OUTPUTS_HPP

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/StepStatistics.hpp"
#include "nsdyn/io/Expression.hpp"
#include "nsdyn/io/IoExport.hpp"

namespace nsdyn::io {

/// Time and step of the values being recorded; the output expressions read
/// `t`, `k` and `h` from here.
struct NSDYN_IO_API OutputClock {
  double t = 0.0;  ///< time of the state (t0 for row 0, t_{k} after step k)
  long k = 0;      ///< steps done
  double h = 0.0;  ///< time step
};

/// One column of an output table.
struct NSDYN_IO_API ColumnSpec {
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
struct NSDYN_IO_API CurveSpec {
  std::size_t column = 0;
  std::string title;
  std::string panel;  ///< y label; curves with the same panel share it
};

/// One output table (`<output>`): a CSV file NAME.csv, or a dataset NAME in
/// the HDF5 file.
struct NSDYN_IO_API OutputSpec {
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
struct NSDYN_IO_API BodySpec {
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
struct NSDYN_IO_API VtkSpec {
  long every = 1;
  std::vector<BodySpec> bodies;
};

/// Everything the `<outputs>` section asks for.
struct NSDYN_IO_API OutputsSpec {
  std::string format = "csv";  ///< "csv" or "hdf5"
  std::vector<OutputSpec> outputs;
  VtkSpec vtk;
  /// Shared with the compiled expressions (they read t, k, h from it).
  std::shared_ptr<OutputClock> clock = std::make_shared<OutputClock>();
};

/// The rows recorded for one output: the first @ref spooledRows rows in the
/// spool file @ref spool (a streaming Recorder), then @ref rows in memory.
struct NSDYN_IO_API Table {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;  ///< the rows after the spooled ones
  /// Streaming mode: rows already on disk, as raw native doubles, row after row
  /// (columns.size() doubles each) in @ref spool; 0 and "" in memory mode.
  std::size_t spooledRows = 0;
  std::string spool;
  /// Every row recorded so far.
  std::size_t rowCount() const { return spooledRows + rows.size(); }
};

/// Call @p block(values, n) for the first @p records records of @p width doubles
/// of the spool file @p path, in blocks of at most @p blockRecords records (n records,
/// n * width doubles). Memory: one block. nsdyn::Error naming the file when it is
/// missing or holds fewer records.
NSDYN_IO_API void readSpool(const std::string& path, std::size_t width, std::size_t records,
                            const std::function<void(const double*, std::size_t)>& block,
                            std::size_t blockRecords = 4096);

/// Check that the spool file @p path holds at least @p records records of @p width
/// doubles (a regular file): nsdyn::Error naming the file, @p what and the count otherwise.
NSDYN_IO_API void checkSpool(const std::string& path, std::size_t width, std::size_t records,
                             const std::string& what);

/// One VTK frame: the step, the time and each body's point, orientation,
/// velocity and angular velocity.
struct NSDYN_IO_API VtkFrame {
  long step = 0;
  double time = 0.0;
  std::vector<double> points;             ///< x, y, z per body
  std::vector<double> orientations;       ///< q0, q1, q2, q3 per body
  std::vector<double> velocities;         ///< vx, vy, vz per body (world frame)
  std::vector<double> angularVelocities;  ///< ωx, ωy, ωz per body (world frame)
};

/// Doubles of a VTK frame in a spool file: step, time, then per body 3 + 4 + 3 + 3.
NSDYN_IO_API std::size_t vtkFrameWidth(const VtkSpec& spec);

/// Evaluates the outputs of a run into tables (the final files are written at
/// the end, so that a failed run leaves no half-written result).
///
/// Memory mode (the default): every row and frame stays in memory. Streaming
/// mode (streamTo(), used by `nsdyn run`): each table keeps at most a window of
/// rows in memory and appends the older ones to a hidden spool file of raw
/// doubles in the output folder, DIR/.NAME.rows.part (VTK frames:
/// DIR/.MODEL.frames.part), so that memory does not grow with the number of
/// steps; the writers read the spool, then the rows in memory.
class NSDYN_IO_API Recorder {
 public:
  /// Rows per table (and frames) kept in memory in streaming mode by default.
  static constexpr std::size_t kDefaultMemoryRows = 4096;

  explicit Recorder(const OutputsSpec& spec);
  /// Removes the spool files unless keepSpool() (a run that failed without a
  /// checkpoint has no use for them).
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// Streaming mode: spool files in @p dir for table rows beyond @p memoryRows
  /// (>= 1) in memory; VTK frames of model @p model likewise. Call before the
  /// first row (and before loadCheckpoint()).
  void streamTo(const std::string& dir, const std::string& model,
                std::size_t memoryRows = kDefaultMemoryRows);
  bool streaming() const { return !dir_.empty(); }
  /// The spool files stay when the Recorder is destroyed (a checkpoint refers to them).
  void keepSpool(bool keep) { keepSpool_ = keep; }
  /// Delete the spool files (the results are written).
  void removeSpool();
  /// Streaming mode: the spool of table @p o / of the VTK frames (absolute paths).
  std::string spoolPath(std::size_t o) const;
  std::string frameSpoolPath() const;
  /// Restart: table @p o continues after the first @p rows rows of the spool
  /// @p from (checkpoint's; checked with checkSpool() before). Streaming mode: its
  /// own spool becomes those rows (truncated in place, or copied from another
  /// folder); memory mode: they are read into memory before the rows in memory.
  void resumeRows(std::size_t o, const std::string& from, std::size_t rows);
  /// The same for the VTK frames.
  void resumeFrames(const std::string& from, std::size_t frames);
  /// Frames recorded so far (spooled and in memory).
  std::size_t frameCount() const { return spooledFrames_ + frames_.size(); }
  std::size_t spooledFrames() const { return spooledFrames_; }

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
  /// Streaming: move the rows in memory of table @p o to its spool.
  void spillRows(std::size_t o);
  void spillFrames();
  const OutputsSpec& spec_;
  std::vector<Table> tables_;
  std::vector<std::vector<double>> sums_;
  std::vector<char> pendingNext_;
  std::vector<VtkFrame> frames_;
  bool vtkEnabled_ = false;
  std::string dir_, model_;  // streaming mode: the output folder (absolute), the model name
  std::size_t memoryRows_ = kDefaultMemoryRows;
  std::size_t spooledFrames_ = 0;
  bool keepSpool_ = false;
};

/// Totals of a run for its summary, kept step by step (and in checkpoints,
/// so that a restarted run reports the whole run).
struct NSDYN_IO_API RunTotals {
  long steps = 0;         ///< steps done
  long activeSteps = 0;   ///< steps with at least one active relation
  long activations = 0;   ///< relations entering the active set (impacts, for impact laws)
  long solverCalls = 0;   ///< steps where a nonsmooth problem was solved
  long failedSolves = 0;  ///< solves whose status was not NSD_OK
  long fallbackSolves =
      0;  ///< solves handed to the fallback solver (not checkpointed: this process only)
  long aboveTolerance = 0;      ///< solves stopped at their budget above the tolerance (accepted in
                                ///< budget mode; not checkpointed)
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
