#include "core/key_parts.hpp"

#include <cstddef>

namespace fabricgate {

BenchmarkKey& BenchmarkKey::add(std::string name, std::string value) {
  parts_.push_back({std::move(name), std::move(value), false});
  return *this;
}

BenchmarkKey& BenchmarkKey::tag(std::string name, std::string value) {
  parts_.push_back({std::move(name), std::move(value), true});
  return *this;
}

BenchmarkKey& BenchmarkKey::tag(std::string name, std::uint64_t value) {
  return tag(std::move(name), std::to_string(value));
}

BenchmarkKey& BenchmarkKey::tag(std::string name, int value) {
  return tag(std::move(name), std::to_string(value));
}

std::string BenchmarkKey::text() const {
  std::string out;
  for (const KeyPart& p : parts_) {
    if (!out.empty()) out += '/';
    out += p.text();
  }
  return out;
}

std::optional<std::string> BenchmarkKey::tagged(std::string_view name) const {
  for (const KeyPart& p : parts_) {
    if (p.tagged && p.name == name) return p.value;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> KeyPart::number() const {
  // 19 digits always fit in 64 bits; keys carry byte and rank counts far below that.
  if (value.empty() || value.size() > 19 ||
      value.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoull(value);
}

std::optional<std::uint64_t> BenchmarkKey::tagged_number(std::string_view name) const {
  for (const KeyPart& p : parts_) {
    if (p.tagged && p.name == name) return p.number();
  }
  return std::nullopt;
}

BenchmarkKey BenchmarkKey::drop_front(std::size_t count) const {
  BenchmarkKey out;
  if (count < parts_.size())
    out.parts_.assign(parts_.begin() + static_cast<std::ptrdiff_t>(count), parts_.end());
  return out;
}

BenchmarkKey BenchmarkKey::without(std::initializer_list<std::string_view> tags) const {
  BenchmarkKey out;
  for (const KeyPart& p : parts_) {
    bool drop = false;
    for (std::string_view t : tags) drop = drop || (p.tagged && p.name == t);
    if (!drop) out.parts_.push_back(p);
  }
  return out;
}

BenchmarkKey BenchmarkKey::with(std::string_view name, const std::string& value) const {
  BenchmarkKey out = *this;
  for (KeyPart& p : out.parts_) {
    if (p.tagged && p.name == name) p.value = value;
  }
  return out;
}

BenchmarkKey BenchmarkKey::parse(std::string_view text) {
  BenchmarkKey out;
  if (text.empty()) return out;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find('/', begin);
    const std::string_view segment =
        text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
    const std::size_t colon = segment.find(':');
    // A tag is a non-empty name before the first ':'.
    if (colon != std::string_view::npos && colon > 0) {
      out.tag(std::string(segment.substr(0, colon)), std::string(segment.substr(colon + 1)));
    } else {
      const std::size_t position = out.parts_.size();
      out.add(position == 0 ? "family" : position == 1 ? "backend" : "", std::string(segment));
    }
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  return out;
}

}  // namespace fabricgate
