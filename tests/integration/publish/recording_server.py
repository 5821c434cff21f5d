#!/usr/bin/env python3
"""A loopback HTTP(S) server for the publish tests: records every request and answers from a script.

Each request is appended to --log as one JSON line {"method", "path", "headers", "body"} before it
is answered. --responses lists what the Nth request gets: an HTTP status (e.g. 500,500,201), or
"hang" (read the request, never answer, until --hang-seconds pass); the last entry repeats.
--echo-auth puts the request's Authorization header into error bodies, as a careless server
might, so the tests can check that fabricgate redacts what comes back. The bound port is written
to --port-file once the server listens. Serves TLS when --cert and --key are given.
"""
import argparse
import http.server
import json
import os
import ssl
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--responses", default="200")
    parser.add_argument("--hang-seconds", type=float, default=30.0)
    parser.add_argument("--echo-auth", action="store_true")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()
    script = [s.strip() for s in args.responses.split(",") if s.strip()]
    lock = threading.Lock()
    count = [0]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *unused):  # quiet: the log file is the record
            pass

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            with lock:
                index = count[0]
                count[0] += 1
                entry = {"method": self.command, "path": self.path,
                         "headers": {k: v for k, v in self.headers.items()}, "body": body}
                with open(args.log, "a", encoding="utf-8") as log:
                    log.write(json.dumps(entry) + "\n")
            action = script[min(index, len(script) - 1)]
            if action == "hang":
                time.sleep(args.hang_seconds)
                self.close_connection = True
                return
            status = int(action)
            text = "ok" if status < 400 else "request %d refused with %d" % (index, status)
            if args.echo_auth and status >= 400:
                text += "; you sent Authorization: %s" % self.headers.get("Authorization", "")
            payload = json.dumps({"message": text}).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = do_PUT = handle_any

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
