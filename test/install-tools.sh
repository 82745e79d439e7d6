#!/usr/bin/env bash
# Installs the system tools the tests need, from Debian's packages, when they
# are missing: kcat (the test Kafka broker), librdkafka-dev and a C compiler
# (the broker helper with fault injection), zstd (ZStandard-compressed Kafka
# batches), poppler-utils (reading PDFs back),
# fonts-dejavu-core (the font the report PDFs embed), nginx with its
# JavaScript module (the front of several shards, deploy/front/).
set -euo pipefail

need=()
command -v kcat >/dev/null 2>&1 || need+=(kcat)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
# ZStandard-compressed Kafka batches are made with the zstd command (Node's zlib has no ZStandard before Node 22).
command -v zstd >/dev/null 2>&1 || need+=(zstd)
# The report PDFs embed DejaVu Sans (src/reports/pdf-fonts.ts).
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
[ -f /usr/include/librdkafka/rdkafka_mock.h ] || need+=(librdkafka-dev)
command -v cc >/dev/null 2>&1 || need+=(gcc)
[ -x /usr/sbin/nginx ] || need+=(nginx)
[ -f /usr/lib/nginx/modules/ngx_http_js_module.so ] || need+=(libnginx-mod-http-js)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "test tools missing (${need[*]}) and not root: install them with apt-get" >&2
    exit 1
  fi
fi
echo "installing test tools: ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
# shellcheck disable=SC2068
$sudo apt-get install -y -qq $(printf '%s\n' "${need[@]}" | sort -u) >/dev/null
