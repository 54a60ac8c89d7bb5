"""Child process that runs llama.cpp's OpenAI-compatible server until SIGTERM.

Started by arena.models.server; not a public API.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--alias", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ctx", type=int, default=4096)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--template", required=True)
    args = parser.parse_args(argv)

    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.model_alias = args.alias
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.n_ctx = args.ctx * args.parallel
    params.n_parallel = args.parallel
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.use_jinja = True
    with open(args.template, encoding="utf-8") as handle:
        params.chat_template = handle.read()
    params.warmup = False
    params.force_pure_content_parser = True

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    server = xllamacpp.Server(params)
    print(f"listening {server.listening_address}", flush=True)
    stop.wait()
    # Exit without the server's own shutdown: asked to stop while its loop is still starting,
    # it waits for that loop forever (seen in a test run: a SIGKILLed run left its server running).
    # The server keeps nothing that needs flushing.
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
