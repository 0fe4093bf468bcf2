import CJemalloc
import SchedBenchCLI
import SchedulerBench

// This executable links jemalloc; the engine reads its statistics through mallctl.
AllocationCounter.mallctl = { name, old, oldSize, new, newSize in mallctl(name, old, oldSize, new, newSize) }
SchedBench.main()
