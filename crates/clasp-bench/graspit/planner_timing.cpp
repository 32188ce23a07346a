// Times GraspIt's own EigenGrasp planner, so that Clasp's planner can be put beside it in one
// run (crates/clasp-bench/graspit/compare.sh, docs/benchmarks.md). A GraspIt plugin: GraspIt
// loads it with `--plugin`, starts it, and calls mainLoop when idle; the first call does the
// whole measurement and exits.
//
// For each object, with GraspIt's Barrett and the settings of GraspIt's EigenGrasp planner
// dialog (axis-angle search space round the object, contact energy, preset (virtual) contacts,
// GraspIt's annealing schedule):
//  - a SimAnnPlanner run on its own thread, as GraspIt's threaded planners run: annealing steps
//    a second, and states a second (every state the energy analysed, legal or not, the way
//    timeTest.cpp counts them);
//    and where a state's time goes, as Clasp's planner reports it: the collision check
//    (GraspIt's `legal()`, its `noCollision(hand)`), the contact energy (the virtual contacts'
//    distances and their sum), and the rest of analysing a state (placing the hand: the
//    state's `execute()`, with the hand's state saved and restored);
//  - GraspIt's TimeTester itself (timeTest.cpp) round the best state that run found: states
//    a second.
// Prints one JSON object a line.
//
// Environment: CLASP_HAND (robot XML), CLASP_OBJECTS (object XMLs, comma-separated),
// CLASP_STEPS (GraspIt's step counter ends there; it starts at 30,000), CLASP_SECONDS (the
// TimeTester's run).

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "plugin_environment.h"

#include "graspit/plugin.h"
#include "graspit/graspitCore.h"
#include "graspit/world.h"
#include "graspit/robot.h"
#include "graspit/body.h"
#include "graspit/EGPlanner/searchState.h"
#include "graspit/EGPlanner/simAnnPlanner.h"
#include "graspit/EGPlanner/timeTest.h"
#include "graspit/EGPlanner/energy/contactEnergy.h"
#include "graspit/EGPlanner/energy/searchEnergyFactory.h"

namespace {

std::atomic<long> analysed(0);

// Seconds spent in each share of the states analysed (the planner analyses on one thread).
struct Shares {
  double analysing = 0.0;
  double collision = 0.0;
  double energy = 0.0;
};
Shares shares;

double seconds_since(std::chrono::steady_clock::time_point start)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// GraspIt's contact energy, counting every state it analyses and timing its shares.
class CountedContactEnergy : public ContactEnergy
{
  public:
    void analyzeState(bool &legal, double &energy, const GraspPlanningState *state,
                      bool noChange = true) override
    {
      ++analysed;
      auto start = std::chrono::steady_clock::now();
      ContactEnergy::analyzeState(legal, energy, state, noChange);
      shares.analysing += seconds_since(start);
    }

  protected:
    bool legal() const override
    {
      auto start = std::chrono::steady_clock::now();
      bool legal = ContactEnergy::legal();
      shares.collision += seconds_since(start);
      return legal;
    }

    double energy() const override
    {
      auto start = std::chrono::steady_clock::now();
      double energy = ContactEnergy::energy();
      shares.energy += seconds_since(start);
      return energy;
    }
};

const char *const COUNTED = "CLASP_COUNTED_CONTACT_ENERGY";

void wait_while_running(EGPlanner *planner)
{
  while (planner->getState() == RUNNING) { usleep(1000); }
}

// A threaded planner must leave its thread before it is deleted.
void finish(EGPlanner *planner)
{
  planner->stopPlanner();
  while (planner->getState() != EXITED) { usleep(1000); }
  delete planner;
}

void configure(EGPlanner *planner)
{
  planner->startThread();
  planner->setEnergyType(COUNTED);
  planner->setContactType(CONTACT_PRESET);
}

struct Annealing {
  long steps;
  long states;
  double seconds;
  GraspPlanningState *best;
  Shares shares;
};

Annealing anneal(Hand *hand, const GraspPlanningState &model, int lastStep)
{
  SimAnnPlanner *planner = new SimAnnPlanner(hand);
  configure(planner);
  planner->setModelState(&model);
  planner->setMaxSteps(lastStep);
  planner->resetPlanner();
  long firstStep = planner->getCurrentStep();
  analysed = 0;
  shares = Shares();
  auto start = std::chrono::steady_clock::now();
  planner->startPlanner();
  wait_while_running(planner);
  double seconds = seconds_since(start);
  Annealing run{planner->getCurrentStep() - firstStep, analysed.load(), seconds, nullptr, shares};
  if (planner->getListSize() > 0) {
    // The planner's hand is a clone that goes with the planner.
    run.best = new GraspPlanningState(planner->getGrasp(0));
    run.best->changeHand(hand, true);
  }
  finish(planner);
  return run;
}

struct Timing {
  long legal;
  long illegal;
  double seconds;
};

Timing time_test(Hand *hand, const GraspPlanningState &around, double seconds)
{
  TimeTester *tester = new TimeTester(hand);
  configure(tester);
  tester->setModelState(&around);
  tester->resetPlanner();
  auto start = std::chrono::steady_clock::now();
  tester->startPlanner();
  usleep(static_cast<useconds_t>(seconds * 1e6));
  tester->pausePlanner();
  wait_while_running(tester);
  Timing timing{tester->getCount(), tester->getIllegal(), seconds_since(start)};
  finish(tester);
  return timing;
}

std::string base_name(const std::string &path)
{
  std::string name = path.substr(path.find_last_of('/') + 1);
  return name.substr(0, name.find_last_of('.'));
}

bool measure(World *world, Hand *hand, const std::string &objectFile, int lastStep, double seconds)
{
  Body *body = world->importBody("GraspableBody", QString::fromStdString(objectFile));
  GraspableBody *object = dynamic_cast<GraspableBody *>(body);
  if (!object) {
    std::cerr << "cannot load " << objectFile << " as a graspable body\n";
    return false;
  }
  // Away from where GraspIt adds a planner's clone of the hand (the origin): GraspIt turns
  // off collisions between the clone and whatever it touches when added.
  object->setTran(transf::TRANSLATION(vec3(1000, 0, 0)));
  GraspPlanningState model(hand);
  model.setObject(object);
  model.setPositionType(SPACE_AXIS_ANGLE);
  model.setRefTran(object->getTran());
  model.reset();

  Annealing run = anneal(hand, model, lastStep);
  Timing timing{0, 0, 0.0};
  if (run.best) { timing = time_test(hand, *run.best, seconds); }
  delete run.best;

  long tested = timing.legal + timing.illegal;
  printf("{\"object\": \"%s\", \"steps\": %ld, \"states\": %ld, \"seconds\": %.3f, "
         "\"steps_per_s\": %.1f, \"states_per_s\": %.1f, \"time_test_legal\": %ld, "
         "\"time_test_illegal\": %ld, \"time_test_seconds\": %.3f, "
         "\"time_test_states_per_s\": %.1f, \"placement_s\": %.3f, \"collision_s\": %.3f, "
         "\"distances_s\": %.3f, \"search_s\": %.3f}\n",
         base_name(objectFile).c_str(), run.steps, run.states, run.seconds,
         run.steps / run.seconds, run.states / run.seconds, timing.legal, timing.illegal,
         timing.seconds, timing.seconds > 0 ? tested / timing.seconds : 0.0,
         run.shares.analysing - run.shares.collision - run.shares.energy, run.shares.collision,
         run.shares.energy, run.seconds - run.shares.analysing);
  fflush(stdout);
  world->destroyElement(object);
  return true;
}

class PlannerTiming : public Plugin
{
  public:
    int init(int, char **) override
    {
      REGISTER_SEARCH_ENERGY_CREATOR(COUNTED, CountedContactEnergy);
      return SUCCESS;
    }

    int mainLoop() override
    {
      World *world = graspitCore->getWorld();
      std::string handFile = environment("CLASP_HAND", "");
      Robot *robot = world->importRobot(QString::fromStdString(handFile));
      Hand *hand = dynamic_cast<Hand *>(robot);
      if (!hand) {
        std::cerr << "cannot load " << handFile << " as a hand\n";
        exit(2);
      }
      // The hand waits out of the way; the planners move clones of it.
      hand->setTran(transf::TRANSLATION(vec3(0, 0, 2000)));
      int lastStep = std::atoi(environment("CLASP_STEPS", "70000").c_str());
      double seconds = std::atof(environment("CLASP_SECONDS", "10").c_str());
      bool ok = true;
      for (const std::string &object : split(environment("CLASP_OBJECTS", ""))) {
        ok = measure(world, hand, object, lastStep, seconds) && ok;
      }
      exit(ok ? 0 : 1);
    }
};

}  // namespace

CLASP_PLUGIN_ENTRY_POINTS(PlannerTiming, "clasp planner timing")
