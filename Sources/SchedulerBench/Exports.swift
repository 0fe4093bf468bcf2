// The engine's layers, re-exported: a program that imports SchedulerBench sees them all.
@_exported import BenchAnalysis
@_exported import BenchMeasure
@_exported import BenchModel
@_exported import BenchStress
