#include "COpaquePublish.h"

void rx_opaque_publish(void *_Nonnull word, long value) {
    __atomic_store_n((long *)word, value, __ATOMIC_RELEASE);
}

void rx_opaque_publish_byte(void *_Nonnull byte, unsigned char value) {
    __atomic_store_n((unsigned char *)byte, value, __ATOMIC_RELEASE);
}
