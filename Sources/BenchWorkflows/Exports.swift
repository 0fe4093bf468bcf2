// The engine's layers, re-exported: the command line, which imports BenchWorkflows, sees them all.
@_exported import BenchAnalysis
@_exported import BenchMeasure
@_exported import BenchModel
@_exported import BenchStress
