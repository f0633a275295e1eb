/* A GL program that reads its events only through XCheckIfEvent, as SFML does: a stand-in for
 * such third-party apps in the tracking tests. Any key or button flips the clear colour. */
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t stop_requested = 0;
static void on_term(int sig) { (void)sig; stop_requested = 1; }
static Bool any_event(Display* d, XEvent* e, XPointer arg) { (void)d; (void)e; (void)arg; return True; }

int main(void) {
  Display* dpy = XOpenDisplay(NULL);
  if (!dpy) { fprintf(stderr, "xcheckif_app: no display\n"); return 1; }
  int attrs[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None};
  XVisualInfo* vi = glXChooseVisual(dpy, DefaultScreen(dpy), attrs);
  if (!vi) { fprintf(stderr, "xcheckif_app: no visual\n"); return 1; }
  XSetWindowAttributes swa = {0};
  Window root = RootWindow(dpy, vi->screen);
  swa.colormap = XCreateColormap(dpy, root, vi->visual, AllocNone);
  swa.event_mask = KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask;
  Window win = XCreateWindow(dpy, root, 0, 0, 320, 240, 0, vi->depth, InputOutput, vi->visual,
                             CWColormap | CWEventMask, &swa);
  XMapWindow(dpy, win);
  GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
  glXMakeCurrent(dpy, win, ctx);
  signal(SIGTERM, on_term);
  int flips = 0;
  while (!stop_requested) {
    XEvent ev;
    while (XCheckIfEvent(dpy, &ev, any_event, NULL))
      if (ev.type == KeyPress || ev.type == KeyRelease || ev.type == ButtonPress || ev.type == ButtonRelease) ++flips;
    glClearColor(flips % 2 ? 0.9f : 0.1f, 0.4f, 0.4f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glXSwapBuffers(dpy, win);
  }
  glXMakeCurrent(dpy, None, NULL);
  glXDestroyContext(dpy, ctx);
  XCloseDisplay(dpy);
  return 0;
}
