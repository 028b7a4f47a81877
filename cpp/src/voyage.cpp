#include "manila/voyage.hpp"

#include <stdexcept>
#include <string>

namespace manila {
namespace {

[[noreturn]] void reject(const std::string& field, const std::string& why) {
    throw std::invalid_argument(field + ": " + why);
}

std::string boat_field(const Boat& b, int index) {
    if (b.good >= 0 && b.good < kNumGoods) return std::string("boats.") + kGoods[b.good].name;
    return "boats[" + std::to_string(index) + "]";
}

void check_owner(int owner, int num_owners, const std::string& field, bool may_be_free) {
    if (owner == kNoOwner && may_be_free) return;
    if (owner < 0 || owner >= num_owners)
        reject(field, "owner id " + std::to_string(owner) + " is not in 0.." +
                          std::to_string(num_owners - 1));
}

}  // namespace

void Voyage::validate() const {
    if (next_roll < 1 || next_roll > 3)
        reject("next_roll", "must be 1, 2 or 3, got " + std::to_string(next_roll));
    if (num_owners < 0 || num_owners > kMaxOwners)
        reject("num_owners", "must be 0.." + std::to_string(kMaxOwners) + ", got " +
                                 std::to_string(num_owners));
    for (int i = 0; i < kNumBoats; ++i) {
        const Boat& b = boats[i];
        const std::string field = boat_field(b, i);
        if (b.good < 0 || b.good >= kNumGoods)
            reject(field + ".good", "unknown good id " + std::to_string(b.good));
        if (i > 0 && b.good <= boats[i - 1].good)
            reject("boats", "three different goods are needed, in canonical order");
        if (b.position < 0 || b.position > kArrived)
            reject(field + ".position",
                   "must be 0..13 or arrived (14), got " + std::to_string(b.position));
        if (b.crew_size < 0 || b.crew_size > b.seats())
            reject(field + ".crew", "a " + std::string(kGoods[b.good].name) + " boat has " +
                                        std::to_string(b.seats()) + " seats, not " +
                                        std::to_string(b.crew_size));
        for (int s = 0; s < kMaxSeats; ++s) {
            const std::string seat = field + ".crew[" + std::to_string(s) + "]";
            if (s < b.crew_size)
                check_owner(b.crew[s], num_owners, seat, false);
            else if (b.crew[s] != kNoOwner)
                reject(seat, "a seat past the crew size must be empty");
        }
    }
    for (int s = 0; s < kNumSpots; ++s)
        check_owner(spots[s], num_owners, std::string("spots.") + kSpotNames[s], true);
    if (spots[kPirate2] != kNoOwner && spots[kPirate1] == kNoOwner)
        reject("spots.pirate_2", "pirate_2 may only be occupied once pirate_1 is");
}

int Voyage::accomplices(int owner) const {
    int count = 0;
    for (const Boat& b : boats)
        for (int s = 0; s < b.crew_size; ++s) count += b.crew[s] == owner;
    for (int o : spots) count += o == owner;
    return count;
}

}  // namespace manila
