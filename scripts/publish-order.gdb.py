# Loaded into gdb by scripts/check-publish-order.py (not run alone). For each case of
# PublishOrderProbe:
#   1. at `publish_probe_arm`, sets a hardware watchpoint on the flag the case will publish;
#   2. when the probe's thread writes it (the publish), records the reference counts of the
#      payload and the chunk at that instant, and starts watching that thread's retains;
#   3. at `publish_probe_done` (the producer's call returned), stops watching and prints
#          publish-order <case> payload=<count> [chunk=<count>] retained-after=<retains>
#      where <retains> counts retains of the payload or the chunk between the publish and the
#      return ("none" if the publish was never seen).
import gdb

MASK = (1 << 64) - 1
# The runtime's entry points that add a strong reference (the first argument is the object;
# a bridge object may carry tag bits in its top and bottom bits).
RETAINS = ["swift_retain", "swift_retain_n", "swift_nonatomic_retain", "swift_unknownObjectRetain", "swift_bridgeObjectRetain"]
POINTER_BITS = 0x00FF_FFFF_FFFF_FFF8


def registers(*names):
    frame = gdb.selected_frame()
    return [int(frame.read_register(name)) & MASK for name in names]


def read(address, size=8):
    return int.from_bytes(gdb.selected_inferior().read_memory(address, size).tobytes(), "little")


def strong_count(obj):
    """The strong reference count of a Swift object on x86-64: the header's second word holds
    the extra strong count in bits 33–62; bit 63 means a side table (weak references), which
    these payloads never have."""
    bits = read(obj + 8)
    if bits >> 63:
        return "side-table"
    return ((bits >> 33) & ((1 << 30) - 1)) + 1


class Case:
    def __init__(self, number, flag, size, payload, chunk, thread):
        self.number, self.flag, self.size, self.payload, self.chunk, self.thread = number, flag, size, payload, chunk, thread
        self.published = None  # "payload=… chunk=…" once the publish is seen
        self.objects = set()
        self.retained_after = 0


current = None
actions = []  # what to do once gdb has stopped: breakpoints are not added or deleted in stop()


class Arm(gdb.Breakpoint):
    def stop(self):
        number, flag, size, payload, chunk = registers("rdi", "rsi", "rdx", "rcx", "r8")
        actions.append(("arm", Case(number, flag, size, payload, chunk, gdb.selected_thread().num)))
        return True


class Published(gdb.Breakpoint):
    def __init__(self, case):
        kind = {1: "unsigned char", 8: "unsigned long"}[case.size]
        super().__init__(f"*({kind} *){case.flag:#x}", gdb.BP_WATCHPOINT, gdb.WP_WRITE, internal=True)
        self.case = case

    def stop(self):
        case = self.case
        if gdb.selected_thread().num != case.thread or read(case.flag, case.size) == 0:
            return False
        case.objects = {case.payload} | ({case.chunk} if case.chunk else set())
        case.published = f"payload={strong_count(case.payload)}" + (f" chunk={strong_count(case.chunk)}" if case.chunk else "")
        actions.append(("published", self))
        return True


class Retain(gdb.Breakpoint):
    def __init__(self, function, case):
        super().__init__(function, internal=True)
        self.case = case

    def stop(self):
        case = self.case
        if gdb.selected_thread().num == case.thread and registers("rdi")[0] & POINTER_BITS in case.objects:
            case.retained_after += 1
        return False


class Done(gdb.Breakpoint):
    def stop(self):
        actions.append(("done", None))
        return True


gdb.execute("set pagination off")
gdb.execute("set confirm off")
# At the first instruction (`*`), before a prologue moves the argument registers.
Arm("*publish_probe_arm", internal=True)
Done("*publish_probe_done", internal=True)
watching = []
gdb.execute("run")
while gdb.selected_inferior().pid != 0:
    while actions:
        action, subject = actions.pop(0)
        if action == "arm":
            current = subject
            watching = [Published(current)]
        elif action == "published":
            subject.delete()
            watching = [Retain(function, current) for function in RETAINS]
        elif action == "done" and current is not None:
            for breakpoint in watching:
                if breakpoint.is_valid():
                    breakpoint.delete()
            watching = []
            published = current.published or "payload=none"
            retained = current.retained_after if current.published else "none"
            print(f"publish-order {current.number} {published} retained-after={retained}", flush=True)
            current = None
    gdb.execute("continue")
