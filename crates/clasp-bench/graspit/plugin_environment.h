// What our GraspIt plugins (planner_timing.cpp, world_check.cpp, parity.cpp) share: what they
// read from the environment (a variable with a fallback, comma-separated lists of files, the
// worlds to read) and the entry points GraspIt finds a plugin by.
#pragma once

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

inline std::string environment(const char *name, const char *fallback)
{
  const char *value = getenv(name);
  return value ? value : fallback;
}

inline std::vector<std::string> split(const std::string &list)
{
  std::vector<std::string> items;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (!item.empty()) { items.push_back(item); }
  }
  return items;
}

// The world files a plugin reads: CLASP_WORLDS, comma-separated.
inline std::vector<std::string> worlds()
{
  return split(environment("CLASP_WORLDS", ""));
}

// GraspIt loads a plugin by these two functions: a new instance, and its type's name. Used
// after graspit/plugin.h, at the end of the plugin's file.
#define CLASP_PLUGIN_ENTRY_POINTS(Class, type)              \
  extern "C" PLUGIN_API Plugin *createPlugin()              \
  {                                                         \
    return new Class();                                     \
  }                                                         \
  extern "C" PLUGIN_API std::string getType()               \
  {                                                         \
    return type;                                            \
  }
