// The module is header-only (an inline function); SwiftPM needs one source file to build it.
#include "CSpinHint.h"
