// SHA-256 (FIPS 180-4), for the play route's record checksum (api_play.cpp), which must be
// hashlib's to the bit: tests/test_play_contract.py holds it to hashlib.sha256.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace manila {

std::array<std::uint8_t, 32> sha256(std::string_view bytes);
// The digest in lowercase hexadecimal (hashlib's hexdigest()).
std::string sha256_hex(std::string_view bytes);

}  // namespace manila
