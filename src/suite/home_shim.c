/* libpictor_home.so: preloaded into a real game whose profile says `passwd_home = private`.
 * Some games (Extreme Tux Racer) find their config directory through getpwuid() instead of $HOME;
 * this shim answers the current user's password entry with pw_dir = $PICTOR_PRIVATE_HOME, so the
 * game reads and writes the session's private home and never the user's. Nothing else changes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static const char* private_home(void) {
  const char* h = getenv("PICTOR_PRIVATE_HOME");
  return h && *h ? h : NULL;
}

/* The static-buffer calls: point pw_dir at the private home (the string lives in the environment). */
static struct passwd* redirect(struct passwd* pw) {
  const char* home = private_home();
  if (pw && home && pw->pw_uid == getuid()) pw->pw_dir = (char*)home;
  return pw;
}

/* The reentrant calls: the entry's strings live in the caller's buffer; the private home is copied
 * in after them when it fits, else the entry stays as it was (the game then sees the real home). */
static int redirect_r(int rc, struct passwd* pwd, char* buf, size_t buflen, struct passwd** result) {
  const char* home = private_home();
  if (rc != 0 || !result || !*result || !home || pwd->pw_uid != getuid()) return rc;
  const char* fields[] = {pwd->pw_name, pwd->pw_passwd, pwd->pw_gecos, pwd->pw_dir, pwd->pw_shell};
  char* used_end = buf;
  for (int i = 0; i < 5; ++i) {
    if (!fields[i] || fields[i] < buf || fields[i] >= buf + buflen) continue;
    char* end = (char*)fields[i] + strlen(fields[i]) + 1;
    if (end > used_end) used_end = end;
  }
  const size_t need = strlen(home) + 1;
  if ((size_t)(buf + buflen - used_end) >= need) {
    memcpy(used_end, home, need);
    pwd->pw_dir = used_end;
  }
  return rc;
}

EXPORT struct passwd* getpwuid(uid_t uid) {
  static struct passwd* (*real)(uid_t);
  if (!real) real = (struct passwd * (*)(uid_t)) dlsym(RTLD_NEXT, "getpwuid");
  return real ? redirect(real(uid)) : NULL;
}

EXPORT struct passwd* getpwnam(const char* name) {
  static struct passwd* (*real)(const char*);
  if (!real) real = (struct passwd * (*)(const char*)) dlsym(RTLD_NEXT, "getpwnam");
  return real ? redirect(real(name)) : NULL;
}

EXPORT int getpwuid_r(uid_t uid, struct passwd* pwd, char* buf, size_t buflen, struct passwd** result) {
  static int (*real)(uid_t, struct passwd*, char*, size_t, struct passwd**);
  if (!real) real = (int (*)(uid_t, struct passwd*, char*, size_t, struct passwd**))dlsym(RTLD_NEXT, "getpwuid_r");
  if (!real) return ENOSYS;
  return redirect_r(real(uid, pwd, buf, buflen, result), pwd, buf, buflen, result);
}

EXPORT int getpwnam_r(const char* name, struct passwd* pwd, char* buf, size_t buflen, struct passwd** result) {
  static int (*real)(const char*, struct passwd*, char*, size_t, struct passwd**);
  if (!real) real = (int (*)(const char*, struct passwd*, char*, size_t, struct passwd**))dlsym(RTLD_NEXT, "getpwnam_r");
  if (!real) return ENOSYS;
  return redirect_r(real(name, pwd, buf, buflen, result), pwd, buf, buflen, result);
}
