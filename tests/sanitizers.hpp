// TSURU_SANITIZED_BUILD is defined in builds under AddressSanitizer or ThreadSanitizer (gcc
// and clang spell it differently), where timing checks are left out: the code runs several
// times slower there.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TSURU_SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TSURU_SANITIZED_BUILD 1
#endif
#endif
