// The public API lives in the measuring layer (the registry, `HandOff`, `Item`,
// `WorkloadTrial`); a program that imports SchedulerBench sees it through this module.
@_exported import BenchMeasure
