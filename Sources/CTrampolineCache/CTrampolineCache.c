#include "CTrampolineCache.h"

__thread void *_Nullable rx_trampoline_cache __attribute__((tls_model("initial-exec"))) = 0;
