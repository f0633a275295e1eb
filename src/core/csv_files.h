// Every CSV file Pictor writes, with its schema version and header row: the one table writers and
// readers share. A CSV's first line is its header row, so any CSV reader opens it; the schema
// version lives in the JSON beside it (run.json "files", hook.json, proxy.json, recording.json).
#pragma once
#include <string_view>

namespace pictor::csv_files {

struct CsvFile {
  std::string_view name;    // file name in the session directory (a second writing process adds .PID)
  int schema;               // the newest version this Pictor writes and reads
  std::string_view header;  // the header row, without the line end
};

// Written inside the app by the interposer.
// The columns after tag (the offload frame copy, docs/offload.md) were added within schema 1:
// readers find every column by its header name, so older files and older readers still agree.
inline constexpr CsvFile kFrames{"frames.csv", 1,
                                 "frame,ctx,swap_ns,frame_ms,outside_swap_ms,swap_call_ms,gpu_ms,fc_ms,tag,"
                                 "as_ms,fc_start_ns,fc_end_ns,as_start_ns,as_end_ns"};
inline constexpr CsvFile kGpu{"gpu.csv", 1, "frame,ctx,gpu_ms"};
inline constexpr CsvFile kInputsRead{"inputs_read.csv", 1, "tag,kind,detail,read_ns"};
// Written by the proxy hook.
inline constexpr CsvFile kProxyEvents{"proxy_events.csv", 1,
                                      "kind,start_ns,end_ns,fd,bytes,input,detail,down,x,y,width,height,quality,call"};
// Written by the clients.
inline constexpr CsvFile kClientInputs{"client_inputs.csv", 1, "tag,kind,detail,sent_ns,name"};
inline constexpr CsvFile kClientFrames{"client_frames.csv", 1, "seen_ns,tag,frame,decode_us,capture_us"};
inline constexpr CsvFile kClientUpdates{"client_updates.csv", 1, "update,start_ns,end_ns,rects,bytes,x,y,w,h,marker,offset"};
inline constexpr CsvFile kClientColours{"client_colours.csv", 1, "seen_ns,r,g,b"};
// The stream adapter (docs/streaming.md): one row per frame its server captured (marker read at
// capture, raw wire values), and one per frame its client decoded.
inline constexpr CsvFile kStreamFrames{"stream_frames.csv", 1,
                                       "pts_ns,captured_ns,encode_in_ns,encode_out_ns,bytes,keyframe,marker_tag,marker_frame"};
inline constexpr CsvFile kStreamReceived{"stream_received.csv", 1,
                                         "pts_ns,decode_in_ns,decoded_ns,bytes,marker_tag,marker_frame"};
// Written by the runner's resource sampler (docs/resources.md): one row per watched process or
// thread and per machine metric at each sample; counters.csv one row per process and event.
inline constexpr CsvFile kResources{"resources.csv", 1,
                                    "t_ns,stack,role,pid,name,user_s,system_s,rss_kb,threads,voluntary_switches,"
                                    "involuntary_switches,minor_faults,major_faults,read_bytes,write_bytes,value,unit,note"};
inline constexpr CsvFile kCounters{"counters.csv", 1, "t_ns,stack,role,pid,name,event,value,enabled_ns,running_ns,note"};
// Written by the analysis (the header is built there: its stage columns are listed in one place).
inline constexpr CsvFile kInputs{"inputs.csv", 1, ""};
// Written by `pictor run --server` (docs/two-hosts.md): every clock probe of the control connection.
inline constexpr CsvFile kClock{"clock.csv", 1,
                                "phase,t1_ns,t2_ns,t3_ns,t4_ns,rtt_ns,offset_ns,t1_realtime_ns,t2_realtime_ns,"
                                "t3_realtime_ns,t4_realtime_ns,realtime_offset_ns"};
// A built-in game's state log (`state=FILE`; state.csv in sessions of `pictor record` / `ic eval`):
// its columns after step,event,detail depend on the game.
inline constexpr CsvFile kStateLog{"state.csv", 1, "step,event,detail"};
// A recording directory (`pictor record`).
inline constexpr CsvFile kRecFrames{"frames.csv", 1, "index,seen_ns,app_frame,tag,file"};
inline constexpr CsvFile kRecInputs{"inputs.csv", 1, "t_ns,kind,code,x,y"};

// The files of a session directory, by name.
inline constexpr CsvFile kSessionFiles[] = {kFrames,        kGpu,          kInputsRead,    kProxyEvents,
                                            kClientInputs,  kClientFrames, kClientUpdates, kClientColours,
                                            kInputs,        kStateLog,     kResources,     kCounters,
                                            kStreamFrames,  kStreamReceived, kClock};

// The session file `name` is an instance of ("frames.csv", or "frames.1234.csv" from a second
// process), or nullptr.
constexpr const CsvFile* find_session_file(std::string_view name) {
  for (const CsvFile& f : kSessionFiles) {
    if (name == f.name) return &f;
    const std::string_view stem = f.name.substr(0, f.name.size() - 4);  // without ".csv"
    if (name.size() > f.name.size() + 1 && name.substr(0, stem.size()) == stem && name[stem.size()] == '.' &&
        name.substr(name.size() - 4) == ".csv") {
      const std::string_view middle = name.substr(stem.size() + 1, name.size() - stem.size() - 5);
      bool digits = !middle.empty();
      for (char c : middle) digits = digits && c >= '0' && c <= '9';
      if (digits) return &f;
    }
  }
  return nullptr;
}

}  // namespace pictor::csv_files
