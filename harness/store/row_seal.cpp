#include "harness/store/row_seal.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

namespace fabricgate::store {

using nlohmann::json;

std::string sealed_text(const StoredRun& run) {
  std::vector<const StoredMedian*> medians;
  medians.reserve(run.medians.size());
  for (const StoredMedian& m : run.medians) medians.push_back(&m);
  std::sort(medians.begin(), medians.end(),
            [](const StoredMedian* a, const StoredMedian* b) { return a->key < b->key; });
  json rows = json::array();
  for (const StoredMedian* m : medians) {
    rows.push_back({m->key, m->bytes, m->time_us, m->algbw_GBps,
                    m->busbw_GBps ? json(*m->busbw_GBps) : json(nullptr), m->verdict});
  }
  const json sealed = {{"v", 1},
                       {"platform", run.platform},
                       {"run_id", run.run_id},
                       {"started_at", run.started_at},
                       {"host_id", run.host_id},
                       {"session_id", run.session_id},
                       {"suite", run.suite},
                       {"scenario", run.scenario},
                       {"complete", run.complete},
                       {"fingerprint_digest", run.fingerprint_digest},
                       {"nodes", run.nodes},
                       {"medians", rows}};
  return sealed.dump(-1, ' ', true, json::error_handler_t::replace);
}

std::string row_seal(const StoredRun& run, const std::string& key) {
  const std::string text = sealed_text(run);
  std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac.data(),
           &length) == nullptr) {
    throw std::runtime_error("HMAC-SHA256 failed (OpenSSL)");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[mac[i] >> 4];
    out += kHex[mac[i] & 15];
  }
  return out;
}

bool seal_holds(const StoredRun& run, const std::string& key) {
  if (key.empty() || run.host_seal.empty()) return false;
  const std::string expected = row_seal(run, key);
  return expected.size() == run.host_seal.size() &&
         CRYPTO_memcmp(expected.data(), run.host_seal.data(), expected.size()) == 0;
}

}  // namespace fabricgate::store
