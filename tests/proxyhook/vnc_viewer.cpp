// A minimal RFB viewer for the proxy-hook tests and bench: connects with libvncclient (Tight,
// JPEG at a given quality level), sends key presses/releases at a steady pace, keeps requesting
// updates, and prints how many updates it received. Not Pictor's client: just enough traffic.
#include <rfb/rfbclient.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int g_updates = 0;

void finished_update(rfbClient*) { ++g_updates; }
void quiet(const char*, ...) {}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s PORT SECONDS KEYS QUALITY_LEVEL(0-9)\n", argv[0]);
    return 2;
  }
  const int port = std::atoi(argv[1]);
  const double seconds = std::atof(argv[2]);
  const int keys = std::atoi(argv[3]);
  const int quality = std::atoi(argv[4]);

  rfbClientLog = rfbClientErr = quiet;
  rfbClient* cl = rfbGetClient(8, 3, 4);
  cl->serverHost = strdup("127.0.0.1");
  cl->serverPort = port;
  cl->appData.encodingsString = "tight copyrect";
  cl->appData.enableJPEG = TRUE;
  cl->appData.qualityLevel = quality;
  cl->appData.compressLevel = 1;
  cl->FinishedFrameBufferUpdate = finished_update;
  if (!rfbInitClient(cl, nullptr, nullptr)) {  // frees cl on failure
    std::fprintf(stderr, "vnc_viewer: cannot connect to 127.0.0.1:%d\n", port);
    return 1;
  }
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto end = start + std::chrono::duration<double>(seconds);
  // Keys spread over the middle of the run, after the first full update.
  const double first_key_s = seconds * 0.2, key_gap_s = keys > 0 ? seconds * 0.6 / keys : 0;
  int sent = 0;
  bool down = false;
  while (Clock::now() < end) {
    const double t = std::chrono::duration<double>(Clock::now() - start).count();
    if (sent < keys && t >= first_key_s + key_gap_s * sent + (down ? key_gap_s / 2 : 0)) {
      const rfbKeySym sym = 0x61 + static_cast<rfbKeySym>(sent % 26);  // 'a', 'b', ...
      SendKeyEvent(cl, sym, down ? FALSE : TRUE);
      if (down) ++sent;
      down = !down;
    }
    const int n = WaitForMessage(cl, 5000);
    if (n < 0) break;
    if (n > 0 && !HandleRFBServerMessage(cl)) {
      std::fprintf(stderr, "vnc_viewer: connection lost\n");
      rfbClientCleanup(cl);
      return 1;
    }
  }
  std::printf("updates %d keys %d\n", g_updates, sent);
  rfbClientCleanup(cl);
  return 0;
}
