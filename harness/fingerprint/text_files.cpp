#include "harness/fingerprint/text_files.hpp"

#include <fstream>
#include <vector>

namespace fabricgate::fingerprint {

std::optional<std::string> read_text(const std::filesystem::path& path, std::size_t max_bytes) {
  // /proc and /sys files are regular files; a FIFO or device planted at a read path is not read
  // (it could block the fingerprint forever).
  {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::is_regular_file(status)) return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(max_bytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(max_bytes));
  if (in.bad()) return std::nullopt;
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::optional<std::string> read_trimmed(const std::filesystem::path& path) {
  auto text = read_text(path);
  if (!text) return std::nullopt;
  return trim(*text);
}

std::filesystem::path under_root(const std::filesystem::path& root, std::string_view absolute) {
  std::string_view relative = absolute;
  while (!relative.empty() && relative.front() == '/') relative.remove_prefix(1);
  return root / std::filesystem::path(relative);
}

}  // namespace fabricgate::fingerprint
