#pragma once
// A benchmark key as named parts (docs/DESIGN.md, "The record contract"). The bench builds every
// key with BenchmarkKey; readers (reports, gate) parse a key's text back to parts and ask for a
// part by name, instead of searching the text for "bytes:" themselves.
//
// Text form (unchanged, so that committed baselines keep matching): the parts joined by '/'. A
// bare part is its value ("coll", "nccl", "all_reduce", "oop"); a tagged part is "name:value"
// ("bytes:1048576", "ranks:2", "src:0"). Bare parts keep their names while a key is built; parsed
// back, only the first two have fixed names (family prefix, backend), the rest are named by
// position in the family's layout and so read by tag, not by name.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fabricgate {

struct KeyPart {
  std::string name;     // "family", "backend", "op", "bytes", ...; "" for an unnamed parsed part
  std::string value;    // "all_reduce", "1048576"
  bool tagged = false;  // written "name:value"

  std::string text() const { return tagged ? name + ":" + value : value; }
  // The value as a count (bytes, ranks, GPU index); nothing unless it is all digits.
  std::optional<std::uint64_t> number() const;
  bool operator==(const KeyPart&) const = default;
};

class BenchmarkKey {
 public:
  BenchmarkKey() = default;

  // A bare part: `value` alone in the text, `name` says what it is.
  BenchmarkKey& add(std::string name, std::string value);
  // A tagged part: "name:value" in the text.
  BenchmarkKey& tag(std::string name, std::string value);
  BenchmarkKey& tag(std::string name, std::uint64_t value);
  BenchmarkKey& tag(std::string name, int value);

  std::string text() const;
  const std::vector<KeyPart>& parts() const& { return parts_; }
  // On a temporary key the parts are moved out, so `for (p : BenchmarkKey::parse(t).parts())`
  // iterates a live vector, not one inside a destroyed key.
  std::vector<KeyPart> parts() && { return std::move(parts_); }

  // The value of the tagged part `name` ("bytes" -> "1048576"), or nothing.
  std::optional<std::string> tagged(std::string_view name) const;
  // tagged(name) as a number; nothing when absent or not all digits.
  std::optional<std::uint64_t> tagged_number(std::string_view name) const;
  // The key without the tagged parts named (e.g. {"bytes"}: the size series it belongs to).
  BenchmarkKey without(std::initializer_list<std::string_view> tags) const;
  // The key without its first `count` parts (e.g. 2: without family prefix and backend).
  BenchmarkKey drop_front(std::size_t count) const;
  // The key with tagged part `name` given another value (e.g. "ranks" -> "*").
  BenchmarkKey with(std::string_view name, const std::string& value) const;

  // Splits key text into parts; parse(text).text() == text for every key.
  static BenchmarkKey parse(std::string_view text);

 private:
  std::vector<KeyPart> parts_;
};

}  // namespace fabricgate
